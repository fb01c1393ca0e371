import AsyncHTTPClient
import Contracts
import Fakes
import Foundation
import JWTKit
import NIOPosix
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Auth

@Suite struct ProviderIdentityTests {
    @Test(
        arguments: [
            ("public, max-age=3600", 3600), ("max-age=19845, must-revalidate, no-transform", 19845), ("max-age=5", 60),
            ("max-age=99999999", 86_400), ("no-cache", nil), ("max-age=abc", nil),
        ] as [(String, Int?)])
    func cacheControlMaxAge(header: String, seconds: Int?) {
        #expect(ProviderKeySet.maxAge(header) == seconds)
    }

    /// A key is trusted only for the signature algorithm it is for; symmetric and encryption keys never.
    @Test func keyAlgorithms() throws {
        func jwk(_ json: String) throws -> JWK { try JSONDecoder().decode(JWK.self, from: Data(json.utf8)) }
        #expect(ProviderKeySet.algorithm(of: try jwk(#"{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"}"#)) == "RS256")
        #expect(ProviderKeySet.algorithm(of: try jwk(#"{"kty":"RSA","kid":"r","alg":"RS512","n":"AQAB","e":"AQAB"}"#)) == "RS512")
        #expect(ProviderKeySet.algorithm(of: try jwk(#"{"kty":"RSA","kid":"r","alg":"RSA-OAEP","n":"AQAB","e":"AQAB"}"#)) == nil)
        #expect(ProviderKeySet.algorithm(of: try jwk(#"{"kty":"EC","kid":"e","crv":"P-256","x":"AA","y":"AA"}"#)) == "ES256")
        #expect((try? jwk(#"{"kty":"oct","kid":"h","k":"c2VjcmV0"}"#)) == nil, "HMAC keys are not even readable")
    }

    @Test func flexibleBooleans() throws {
        struct Box: Decodable { var flag: FlexibleBool }
        for (json, value) in [
            (#"{"flag":true}"#, true), (#"{"flag":"true"}"#, true), (#"{"flag":"false"}"#, false), (#"{"flag":false}"#, false),
        ] {
            #expect(try JSONDecoder().decode(Box.self, from: Data(json.utf8)).flag.value == value)
        }
        #expect((try? JSONDecoder().decode(Box.self, from: Data(#"{"flag":"yes"}"#.utf8))) == nil)
    }

    /// Accounts left unconfirmed for a day go with everything hanging off them; confirmed ones and recent
    /// pending ones stay.
    @Test(arguments: TestDatabases.engines)
    func unconfirmedAccountsArePurgedAfterADay(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: clock, ids: SequentialIDGenerator(),
                http: .shared, threadPool: .singleton)
            let start = clock.now().millisecondsSince1970
            for (id, status, age) in [("old", "pending", 25.0), ("young", "pending", 23.0), ("kept", "active", 48.0)] {
                let created = start - Int64(age * 3_600_000)
                try await db.sql.raw(
                    """
                    INSERT INTO auth_users (id, email, email_normalized, email_verified, original_provider, status, created_at)
                    VALUES (\(bind: id), \(bind: id + "@example.com"), \(bind: id + "@example.com"), 1, 'google.com', \(bind: status), \(bind: created))
                    """
                ).run()
                try await db.sql.raw(
                    """
                    INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at)
                    VALUES ('google.com', \(bind: "sub-" + id), \(bind: id), NULL, \(bind: created))
                    """
                ).run()
            }
            // Apple tokens kept at sign-in: the purged account's goes with it (there is no Apple client secret
            // here to revoke it with: that is logged).
            for id in ["old", "kept"] {
                try await db.sql.raw(
                    "INSERT INTO auth_apple_tokens (user_id, client_id, sealed_refresh_token, created_at) VALUES (\(bind: id), 'app', 'sealed', 0)"
                ).run()
            }
            #expect(try await module.service.purgeUnconfirmed() == 1)
            let users = try await db.sql.raw("SELECT id FROM auth_users ORDER BY id").all(decodingColumn: "id", as: String.self)
            #expect(users == ["kept", "young"])
            let links = try await db.sql.raw("SELECT user_id FROM auth_providers ORDER BY user_id").all(
                decodingColumn: "user_id", as: String.self)
            #expect(links == ["kept", "young"])
            let appleTokens = try await db.sql.raw("SELECT user_id FROM auth_apple_tokens").all(decodingColumn: "user_id", as: String.self)
            #expect(appleTokens == ["kept"])
        }
    }

    /// The purge finds pending accounts before removing them one by one: an account confirmed in between is
    /// left whole (it once lost its sign-in methods and sessions, keeping only its row).
    @Test(arguments: TestDatabases.engines)
    func anAccountConfirmedSinceThePurgeFoundItStaysWhole(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, _, module in
            try await db.sql.raw(
                """
                INSERT INTO auth_users (id, email, email_normalized, email_verified, original_provider, status, created_at)
                VALUES ('raced', 'raced@example.com', 'raced@example.com', 1, 'google.com', 'active', 0)
                """
            ).run()
            try await db.sql.raw(
                "INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at) VALUES ('google.com', 'sub-raced', 'raced', NULL, 0)"
            ).run()
            try await db.sql.raw(
                "INSERT INTO auth_sessions (id, user_id, auth_time, created_at, last_used_at) VALUES ('s1', 'raced', 0, 0, 0)"
            ).run()
            let removed = try await db.transaction { tx in try await AuthService.removeUnconfirmed(userId: "raced", sql: tx.sql) }
            #expect(!removed)
            // Cancelling an account already gone is harmless; a confirmed one is refused. (An account the purge
            // removes between the cancel's read and its delete takes the same harmless path; that moment cannot
            // be staged here.)
            try await module.service.cancelAccountCreation(userId: "gone")
            await #expect(throws: ServiceError.self) { try await module.service.cancelAccountCreation(userId: "raced") }
            #expect(try await db.sql.raw("SELECT user_id FROM auth_providers").all().count == 1)
            #expect(try await db.sql.raw("SELECT id FROM auth_sessions").all().count == 1)
        }
    }

    /// Confirmations of one account at once (a double tap, a retry): each is answered as done, and the profile and
    /// `AccountCreated` are made once (on PostgreSQL the later ones found the account confirmed under their feet,
    /// and failed inserting a second profile).
    @Test(arguments: TestDatabases.engines)
    func concurrentConfirmationsAllSucceedOnce(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, _, module in
            for round in 0..<4 {
                let id = "pending-\(round)"
                try await db.sql.raw(
                    """
                    INSERT INTO auth_users (id, email, email_normalized, email_verified, original_provider, status, pending_name, created_at)
                    VALUES (\(bind: id), \(bind: id + "@example.com"), \(bind: id + "@example.com"), 1, 'google.com', 'pending', 'Ana', 0)
                    """
                ).run()
                let outcomes = await withTaskGroup(of: String.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            do {
                                return try await module.service.confirmAccountCreation(userId: id, timeZone: nil).id == id
                                    ? "ok" : "other user"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes == Array(repeating: "ok", count: 8), "round \(round)")
                #expect(try await db.sql.raw("SELECT user_id FROM auth_profiles WHERE user_id = \(bind: id)").all().count == 1)
                let events = try await db.sql.raw("SELECT id FROM platform_outbox WHERE id = \(bind: "account-created:" + id)").all()
                #expect(events.count == 1)
            }
        }
    }
}
