import Contracts
import Crypto
import Fakes
import Foundation
import JWTKit
import NIOPosix
import Testing

@testable import Auth

@Suite struct AccessTokenTests {
    func makeTokens(clock: FakeWallClock = FakeWallClock(), key: SigningKey = .generate()) async -> AccessTokens {
        await AccessTokens(signingKey: key, lifetime: 900, clock: clock, ids: SequentialIDGenerator())
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodePart(_ part: Substring) throws -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: text))) as? [String: Any] ?? [:]
    }

    @Test func tokensCarryKidAuthTimeAndALifetimeOf15To60Minutes() async throws {
        let clock = FakeWallClock()
        let key = SigningKey.generate()
        let tokens = await makeTokens(clock: clock, key: key)
        let authTime = clock.now().addingTimeInterval(-120)
        let (token, expiresIn) = try await tokens.issue(userId: "u1", sessionId: "s1", authTime: authTime)
        #expect((900...3600).contains(expiresIn))
        let parts = token.split(separator: ".")
        let header = try Self.decodePart(parts[0])
        let claims = try Self.decodePart(parts[1])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == key.keyID)
        #expect(claims["sub"] as? String == "u1")
        #expect(claims["sid"] as? String == "s1")
        #expect(claims["auth_time"] as? Int == Int(authTime.timeIntervalSince1970))
        let principal = try await tokens.verify(token)
        #expect(principal.userId == "u1")
        #expect(principal.authTime == Date(timeIntervalSince1970: TimeInterval(Int(authTime.timeIntervalSince1970))))
    }

    @Test func expiredTokensAreRefusedEvenFromTheCache() async throws {
        let clock = FakeWallClock()
        let tokens = await makeTokens(clock: clock)
        let (token, _) = try await tokens.issue(userId: "u1", sessionId: "s1", authTime: clock.now())
        _ = try await tokens.verify(token)
        clock.advance(by: 901)
        await #expect(throws: ServiceError.self) { _ = try await tokens.verify(token) }
    }

    @Test func tokenFromAnotherKeyIsRefused() async throws {
        let tokens = await makeTokens()
        let other = await makeTokens()
        let (foreign, _) = try await other.issue(userId: "u1", sessionId: "s1", authTime: Date())
        await #expect(throws: ServiceError.self) { _ = try await tokens.verify(foreign) }
    }

    @Test func unsignedAndHMACForgeriesAreRefused() async throws {
        let clock = FakeWallClock()
        let key = SigningKey.generate()
        let tokens = await makeTokens(clock: clock, key: key)
        let (genuine, _) = try await tokens.issue(userId: "victim", sessionId: "s1", authTime: clock.now())
        let payload = String(genuine.split(separator: ".")[1])

        let noneHeader = Self.base64URL(Data(#"{"alg":"none","typ":"JWT","kid":"\#(key.keyID)"}"#.utf8))
        await #expect(throws: ServiceError.self) { _ = try await tokens.verify("\(noneHeader).\(payload).") }

        // HS256 "signed" with the public key as the secret (the classic algorithm-confusion attack).
        let hsHeader = Self.base64URL(Data(#"{"alg":"HS256","typ":"JWT","kid":"\#(key.keyID)"}"#.utf8))
        let publicPEM = key.privateKey.publicKey.pemRepresentation
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(hsHeader).\(payload)".utf8), using: SymmetricKey(data: Data(publicPEM.utf8)))
        let forged = "\(hsHeader).\(payload).\(Self.base64URL(Data(mac)))"
        await #expect(throws: ServiceError.self) { _ = try await tokens.verify(forged) }
    }

    @Test func signingKeyFileIsCreatedOnceAndReused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("povver-key-\(UUID().uuidString)/key.pem").path
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let first = try SigningKey.loadOrCreate(path: path)
        let second = try SigningKey.loadOrCreate(path: path)
        #expect(first.keyID == second.keyID)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0, "the key is readable by its owner only")
        #expect(first.jwks.keys.first?.kid == first.keyID)
    }
}

@Suite struct PasswordHasherTests {
    @Test func hashesVerifyAndAreSalted() async throws {
        let hasher = PasswordHasher(cost: 4, threadPool: .singleton)
        let first = try await hasher.hash("correct horse battery staple")
        let second = try await hasher.hash("correct horse battery staple")
        #expect(first != second)
        #expect(!first.contains("correct"))
        #expect(try await hasher.verify("correct horse battery staple", against: first))
        #expect(try await hasher.verify("correct horse battery stapl", against: first) == false)
        #expect(try await hasher.verify("anything", against: nil) == false)
    }

    @Test func longPassphrasesAreNotTruncated() async throws {
        let hasher = PasswordHasher(cost: 4, threadPool: .singleton)
        let base = String(repeating: "a", count: 100)
        let hash = try await hasher.hash(base + "1")
        #expect(try await hasher.verify(base + "2", against: hash) == false, "bcrypt alone would ignore bytes past 72")
    }
}
