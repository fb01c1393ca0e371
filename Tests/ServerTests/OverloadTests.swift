import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import TestSupport
import Testing

/// Overload says so: with a PostgreSQL pool of one connection per event loop and a 100 ms wait, a burst of writes
/// is answered `200` or `503 UNAVAILABLE` with `Retry-After`, never `500`, and every `200` is stored.
@Suite struct OverloadTests {
    @Test(.enabled(if: TestDatabases.postgresURL != nil))
    func aSaturatedPoolAnswersUnavailableNeverInternal() async throws {
        let environment = ["POVVER_DATABASE_POOL_SIZE": "1", "POVVER_DATABASE_POOL_TIMEOUT_MS": "100"]
        // On a machine busy with the other suites, connecting may itself take longer than the pool's wait: then the
        // server cannot start (its migrations wait for a connection too), and is started again.
        for attempt in 1...5 {
            do {
                try await Self.burst(environment: environment)
                return
            } catch  where "\(error)".contains("connectionRequestTimeout") && attempt < 5 {
                continue
            }
        }
    }

    static func burst(environment: [String: String]) async throws {
        try await TestServer.with(.postgres, environment: environment) { _, client in
            /// Retries what a busy server refused, as a client following `Retry-After` would (without the wait).
            func untilServed(_ name: String, _ body: [String: Any], token: String? = nil) async throws -> Reply {
                for _ in 0..<200 {
                    let reply = try await client.call(name, body, token: token)
                    if reply.status != .serviceUnavailable { return reply }
                }
                throw ServiceError(.internalError, "\(name) was never served")
            }
            let signUp = try await untilServed("signUp", ["email": "busy@example.com", "password": "secret-password"])
            let token = try #require(signUp.accessToken, "\(signUp.json)")
            let calls = (0..<160).map { index in
                (
                    "createTemplate",
                    [
                        "name": "Burst \(index)", "idempotency_key": "burst-\(index)",
                        "exercises": [["exercise_id": "Barbell_Squat", "sets": [["target_reps": 5]]]],
                    ] as [String: Any]
                )
            }
            let outcomes = try await WorkoutsHTTP.concurrently(client, token: token, calls)
            var created: Set<String> = []
            var refused = 0
            for outcome in outcomes {
                switch outcome.status.code {
                case 200: created.insert(outcome.id ?? "")
                case 503:
                    refused += 1
                    #expect(outcome.json.contains("\"UNAVAILABLE\"") && outcome.json.contains("retry_after_seconds"), "\(outcome)")
                default: Issue.record("neither served nor refused for the moment: \(outcome)")
                }
            }
            let listed = try await untilServed("getTemplates", [:], token: token)
            let stored = Set((listed.data["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            #expect(created.isSubset(of: stored), "every 200 is stored: \(created.subtracting(stored))")
            #expect(refused > 0 || created.count == 160, "either the pool was saturated, or everything was served")
        }
    }
}
