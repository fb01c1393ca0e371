import AsyncHTTPClient
import Contracts
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

@testable import Auth

/// A provider's key set through an outage: an answer with no usable key never replaces the good set, and a failed
/// fetch is not retried by every sign-in while it is fresh.
@Suite struct ProviderKeySetOutageTests {
    /// A JWKS endpoint answering scripted replies (the last one again once the script is done), counting requests.
    final class KeySetServer: Sendable {
        let replies: Mutex<[(status: Int, body: String)]>
        let requests = Mutex(0)

        init(_ replies: [(status: Int, body: String)]) {
            self.replies = Mutex(replies)
        }

        func serve(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
            let router = Router()
            router.get("jwks") { _, _ -> Response in
                self.requests.withLock { $0 += 1 }
                let reply = self.replies.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
                return Response(
                    status: .init(code: reply.status), headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: reply.body)))
            }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in try await body("http://127.0.0.1:\(client.port!)/jwks") }
        }
    }

    static func keySet(kid: String) -> String {
        let raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        let encode = { (data: Data) in
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return
            #"{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"\#(kid)","x":"\#(encode(raw.prefix(32)))","y":"\#(encode(raw.suffix(32)))"}]}"#
    }

    @Test func anAnswerWithNoUsableKeyNeverReplacesTheGoodSet() async throws {
        let server = KeySetServer([
            (200, Self.keySet(kid: "k1")), (200, #"{"keys":[]}"#),
            (200, #"{"keys":[{"kty":"RSA","kid":"x","alg":"RSA-OAEP","n":"AQAB","e":"AQAB"}]}"#),
        ])
        try await server.serve { url in
            let keys = ProviderKeySet(
                url: url, client: .shared, logger: Logger(label: "test"), refetchInterval: .zero, failureBackoff: .zero)
            let first = try await keys.keys(for: "k1")
            #expect(first.algorithms["k1"] == "ES256")
            // Unknown key ids make a refetch each (no refetch interval or failure backoff here): an empty set, then only an
            // encryption key.
            let afterEmpty = try await keys.keys(for: "k2")
            #expect(afterEmpty.algorithms["k1"] == "ES256", "the empty answer is ignored")
            let afterUnusable = try await keys.keys(for: "k3")
            #expect(afterUnusable.algorithms["k1"] == "ES256", "the unusable answer is ignored")
            #expect(server.requests.withLock { $0 } == 3)
        }
    }

    @Test func aFailedFetchIsNotRetriedByEverySignIn() async throws {
        let server = KeySetServer([(500, "{}")])
        try await server.serve { url in
            let keys = ProviderKeySet(url: url, client: .shared, logger: Logger(label: "test"), failureBackoff: .seconds(3600))
            for _ in 0..<5 {
                await #expect(throws: ServiceError.self) { _ = try await keys.keys(for: "k1") }
            }
            #expect(server.requests.withLock { $0 } == 1, "one fetch; the other sign-ins fail at once")
        }
    }
}
