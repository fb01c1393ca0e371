import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import TestSupport
import Testing

/// Every kind of bad input gets its code, writes nothing, and the server keeps serving.
@Suite struct BadInputTests {
    @Test(arguments: TestDatabases.engines)
    func badSignUpsWriteNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let cases: [(String, ByteBuffer, String, String?)] = [
                ("malformed JSON", ByteBuffer(string: #"{"email": "a@b.co", "password": "#), "INVALID_ARGUMENT", nil),
                ("not an object", ByteBuffer(string: #"["a@b.co", "secret1"]"#), "INVALID_ARGUMENT", nil),
                ("wrong type", ByteBuffer(string: #"{"email": 42, "password": "secret1"}"#), "INVALID_ARGUMENT", "email"),
                ("missing field", ByteBuffer(string: #"{"email": "a@b.co"}"#), "INVALID_ARGUMENT", "password"),
                ("null field", ByteBuffer(string: #"{"email": null, "password": "secret1"}"#), "INVALID_ARGUMENT", "email"),
                (
                    "optional field of wrong type", ByteBuffer(string: #"{"email": "a@b.co", "password": "secret1", "name": {"x": 1}}"#),
                    "INVALID_ARGUMENT", "name"
                ),
                ("invalid email", ByteBuffer(string: #"{"email": "not-an-email", "password": "secret1"}"#), "INVALID_ARGUMENT", "email"),
                (
                    "email with spaces inside", ByteBuffer(string: #"{"email": "a b@c.co", "password": "secret1"}"#), "INVALID_ARGUMENT",
                    "email"
                ),
                // 60 characters before the @, each a letter under 40 combining marks: 4,860 bytes.
                (
                    "email local part over 64 bytes",
                    ByteBuffer(string: #"{"email": ""# + StackedMarks.text(letters: 60) + #"@b.co", "password": "secret1"}"#),
                    "INVALID_ARGUMENT", "email"
                ),
                (
                    "10 KB password",
                    ByteBuffer(string: #"{"email": "a@b.co", "password": ""# + String(repeating: "p", count: 10_240) + #""}"#),
                    "INVALID_ARGUMENT", "password"
                ),
                ("weak password", ByteBuffer(string: #"{"email": "a@b.co", "password": "123"}"#), "WEAK_PASSWORD", nil),
                (
                    "non-UTF-8",
                    ByteBuffer(bytes: Array(#"{"email": "a@b.co", "password": ""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8)),
                    "INVALID_ARGUMENT", nil
                ),
                (
                    "oversized body",
                    ByteBuffer(
                        string: #"{"email": "a@b.co", "password": "secret1", "name": ""# + String(repeating: "n", count: 1_100_000) + #""}"#
                    ), "PAYLOAD_TOO_LARGE", nil
                ),
            ]
            // Bodies outside the document (cut, of the wrong type, not UTF-8, too big), so sent as bytes.
            for (label, body, code, field) in cases {
                let reply = try await client.send("signUp", bytes: body)
                #expect(reply.code == code, "\(label)")
                #expect(reply.body["success"] == false, "\(label)")
                #expect(!(reply.message ?? "").isEmpty, "\(label)")
                if let field { #expect(reply.body["error"]?["details"]?["field"]?.stringValue == field, "\(label)") }
            }
            #expect(try await count(server, "auth_users") == 0)
            #expect(try await count(server, "auth_sessions") == 0)
            #expect(try await client.get("/health").status == .ok)
            _ = try await client.api().signUp(body: .json(.init(email: "a@b.co", password: "secret1"))).ok
        }
    }

    @Test(arguments: TestDatabases.engines)
    func badTokensAreUnauthenticated(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.api().signUp(body: .json(.init(email: "t@b.co", password: "secret1"))).ok.body.json.data.tokens
                .accessToken
            var parts = token.split(separator: ".").map(String.init)
            parts[1] = Data(#"{"sub":"someone-else","exp":9999999999}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let tampered = parts.joined(separator: ".")
            let unsigned = [
                Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: ""),
                parts[1], "",
            ].joined(separator: ".")
            for bad in [tampered, unsigned, "abc.def.ghi", String(repeating: "x", count: 5000), ""] {
                let refusal = try #require(await refused { try await client.api(bad).getUser(body: .json(.init())) })
                #expect(refusal.status == 401)
                #expect(refusal.code == "UNAUTHENTICATED")
            }
            let garbageRefresh = try #require(
                await refused { try await client.api().refreshToken(body: .json(.init(refreshToken: "rt_nonsense"))) })
            #expect(garbageRefresh.code == "UNAUTHENTICATED")
        }
    }
}

extension BadInputTests {
    /// Text holding the NUL character, which PostgreSQL cannot store (it failed as `INTERNAL` there while
    /// SQLite took it), is `INVALID_ARGUMENT` naming the field on both engines, in a body or a query string,
    /// and writes nothing. An escaped backslash before `u0000` is ordinary text and goes through.
    @Test(arguments: TestDatabases.engines)
    func theNulCharacterIsRefusedOnEveryEngine(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("nul@example.com")
            let bench = WorkoutsFlowTests.bench
            let api = client.api(token)
            let cases: [(String, String, @Sendable () async throws -> Void)] = [
                (
                    "createTemplate", "name",
                    {
                        _ = try await api.createTemplate(
                            body: .json(.init(exercises: [.init(exerciseId: bench, sets: [.init(targetReps: 5)])], name: "Push\u{0}")))
                    }
                ),
                (
                    "createTemplate", "exercises[0].exercise_id",
                    {
                        _ = try await api.createTemplate(
                            body: .json(.init(exercises: [.init(exerciseId: "\(bench)\u{0}", sets: [])], name: "Push")))
                    }
                ),
                (
                    "startActiveWorkout", "idempotency_key",
                    { _ = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "k\u{0}", name: "Day"))) }
                ),
                ("getWorkout", "workout_id", { _ = try await api.getWorkout(body: .json(.init(workoutId: "\u{0}"))) }),
            ]
            for (name, field, call) in cases {
                let refusal = try #require(await refused(call), "\(name) \(field)")
                #expect(refusal.code == "INVALID_ARGUMENT", "\(name) \(field): \(refusal)")
                #expect(refusal.details["field"] == field, "\(name): \(refusal)")
            }
            let query = try await client.get("/getWorkout?workout_id=a%00b", token: token)
            #expect(query.status == .badRequest, "\(String(buffer: query.body))")
            #expect(String(buffer: query.body).contains(#""field":"workout_id""#), "\(String(buffer: query.body))")
            #expect(try await count(server, "workouts_templates") == 0)
            #expect(try await count(server, "workouts_active") == 0)
            // Inside a cursor (base64, so the body itself holds no NUL): not a cursor, on every engine.
            let forged = Data("h:1|\u{0}".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            let cursor = try #require(await refused { try await api.getRecentWorkouts(body: .json(.init(cursor: forged))) })
            #expect(cursor.code == "INVALID_ARGUMENT", "\(cursor)")
            #expect(cursor.details["field"] == "cursor", "\(cursor)")

            // The text `Push \u0000` (a backslash, then `u0000`), sent escaped as `"Push \\u0000"`.
            let literal = try await api.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: bench, sets: [.init(targetReps: 5)])], name: #"Push \u0000"#))
            ).ok.body.json.data
            #expect(literal.name == #"Push \u0000"#)
        }
    }
}
