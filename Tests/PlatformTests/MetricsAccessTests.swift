import Contracts
import HTTPTypes
import NIOCore
import Testing

@testable import Platform

/// Who may read `/metrics` (`MetricsAccess`): the bearer of `POVVER_METRICS_TOKEN` when it is set, else the machine
/// itself only.
@Suite struct MetricsAccessTests {
    static func peer(_ address: String) throws -> SocketAddress { try SocketAddress(ipAddress: address, port: 40_000) }

    @Test func withoutATokenOnlyTheMachineItselfIsAnswered() throws {
        let access = MetricsAccess.loopbackOnly
        for local in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            #expect(access.refusal(headers: [:], peer: try Self.peer(local)) == nil, "\(local)")
        }
        for remote in ["203.0.113.7", "10.0.0.5", "2001:db8::1", "::ffff:192.0.2.1"] {
            #expect(access.refusal(headers: [:], peer: try Self.peer(remote))?.code == .permissionDenied, "\(remote)")
        }
        #expect(access.refusal(headers: [:], peer: nil)?.code == .permissionDenied, "no peer known")
        // A proxy on this machine relays someone else's request: it names them.
        for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
            let relayed: HTTPFields = [HTTPField.Name(header)!: "203.0.113.7"]
            #expect(access.refusal(headers: relayed, peer: try Self.peer("127.0.0.1"))?.code == .permissionDenied, "\(header)")
        }
    }

    @Test func withATokenItsBearerIsAnsweredFromAnywhereAndNoOneElse() throws {
        let access = try MetricsAccess(token: "scrape-token-0123456789")
        let remote = try Self.peer("203.0.113.7")
        #expect(access.refusal(headers: [.authorization: "Bearer scrape-token-0123456789"], peer: remote) == nil)
        #expect(access.refusal(headers: [.authorization: "bearer scrape-token-0123456789"], peer: remote) == nil)
        for presented in [
            "Bearer scrape-token-012345678", "Bearer scrape-token-01234567890", "scrape-token-0123456789", "Bearer ", "Basic x",
        ] {
            #expect(access.refusal(headers: [.authorization: presented], peer: remote)?.code == .unauthenticated, "\(presented)")
        }
        #expect(access.refusal(headers: [:], peer: try Self.peer("127.0.0.1"))?.code == .unauthenticated, "the machine itself too")
    }

    @Test func anUnusableTokenStopsTheStart() throws {
        for token in ["short", "has a space in it, long", "tab\there-0123456789", "ünïcode-0123456789"] {
            #expect(throws: ServiceError.self, "\(token)") { _ = try MetricsAccess(token: token) }
        }
        do {
            _ = try AppConfig.fromEnvironment(["POVVER_METRICS_TOKEN": "short"])
            Issue.record("a short token was accepted")
        } catch let error as ServiceError {
            #expect(error.details["field"] == "POVVER_METRICS_TOKEN")
        }
    }
}
