import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
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
            for (label, body, code, field) in cases {
                let reply = try await client.raw("signUp", body)
                #expect(reply.errorCode == code, "\(label)")
                #expect(reply.json["success"] as? Bool == false, "\(label)")
                #expect(!(reply.errorMessage ?? "").isEmpty, "\(label)")
                if let field { #expect(reply.errorDetails?["field"] as? String == field, "\(label)") }
            }
            #expect(try await count(server, "auth_users") == 0)
            #expect(try await count(server, "auth_sessions") == 0)
            #expect(try await client.get("/health").status == .ok)
            let fine = try await client.call("signUp", ["email": "a@b.co", "password": "secret1"])
            #expect(fine.status == .ok)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func badTokensAreUnauthenticated(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try #require(try await client.call("signUp", ["email": "t@b.co", "password": "secret1"]).accessToken)
            var parts = token.split(separator: ".").map(String.init)
            parts[1] = Data(#"{"sub":"someone-else","exp":9999999999}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let tampered = parts.joined(separator: ".")
            let unsigned = [
                Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: ""),
                parts[1], "",
            ].joined(separator: ".")
            for bad in [tampered, unsigned, "abc.def.ghi", String(repeating: "x", count: 5000), ""] {
                let reply = try await client.call("getUser", token: bad)
                #expect(reply.status == .unauthorized)
                #expect(reply.errorCode == "UNAUTHENTICATED")
            }
            let garbageRefresh = try await client.call("refreshToken", ["refresh_token": "rt_nonsense"])
            #expect(garbageRefresh.errorCode == "UNAUTHENTICATED")
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
            let cases: [(String, String, String)] = [
                (
                    "createTemplate", #"{"name": "Push\u0000", "exercises": [{"exercise_id": "\#(bench)", "sets": [{"target_reps": 5}]}]}"#,
                    "name"
                ),
                (
                    "createTemplate", #"{"name": "Push", "exercises": [{"exercise_id": "\#(bench)\u0000", "sets": []}]}"#,
                    "exercises[0].exercise_id"
                ),
                ("startActiveWorkout", #"{"name": "Day", "idempotency_key": "k\u0000"}"#, "idempotency_key"),
                ("getWorkout", #"{"workout_id": "\u0000"}"#, "workout_id"),
            ]
            for (name, body, field) in cases {
                let reply = try await client.raw(name, ByteBuffer(string: body), token: token)
                #expect(reply.errorCode == "INVALID_ARGUMENT", "\(name) \(field): \(reply.json)")
                #expect(reply.errorDetails?["field"] as? String == field, "\(name): \(reply.json)")
            }
            let query = try await client.get("/getWorkout?workout_id=a%00b", token: token)
            #expect(query.status == .badRequest, "\(String(buffer: query.body))")
            #expect(String(buffer: query.body).contains(#""field":"workout_id""#), "\(String(buffer: query.body))")
            #expect(try await count(server, "workouts_templates") == 0)
            #expect(try await count(server, "workouts_active") == 0)
            // Inside a cursor (base64, so the body itself holds no NUL): not a cursor, on every engine.
            let forged = Data("h:1|\u{0}".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            let cursor = try await client.call("getRecentWorkouts", ["cursor": forged], token: token)
            #expect(cursor.errorCode == "INVALID_ARGUMENT", "\(cursor.json)")
            #expect(cursor.errorDetails?["field"] as? String == "cursor", "\(cursor.json)")

            let literal = try await client.raw(
                "createTemplate",
                ByteBuffer(string: #"{"name": "Push \\u0000", "exercises": [{"exercise_id": "\#(bench)", "sets": [{"target_reps": 5}]}]}"#),
                token: token)
            #expect(literal.status == .ok, "\(literal.json)")
            #expect(literal.data["name"] as? String == #"Push \u0000"#)
        }
    }
}
