import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
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

    /// What a call answered: the value read from its success, or the server's refusal (any other failure is thrown).
    static func outcome<Value: Sendable>(_ call: @Sendable () async throws -> Value) async throws -> (value: Value?, refusal: Refusal?) {
        let box = RefusalRecorder.Box()
        do {
            return (try await RefusalRecorder.$current.withValue(box) { try await call() }, nil)
        } catch {
            guard let refusal = box.refusal else { throw error }
            return (nil, refusal)
        }
    }

    static func burst(environment: [String: String]) async throws {
        try await TestServer.with(.postgres, environment: environment) { _, client in
            /// Retries what a busy server refused, as a client following `Retry-After` would (without the wait).
            func untilServed<Value: Sendable>(_ name: String, _ call: @Sendable () async throws -> Value) async throws -> Value {
                for _ in 0..<200 {
                    let answer = try await outcome(call)
                    if let value = answer.value { return value }
                    if let refusal = answer.refusal, refusal.status != 503 { throw ServiceError(.internalError, "\(name): \(refusal)") }
                }
                throw ServiceError(.internalError, "\(name) was never served")
            }
            let token = try await untilServed("signUp") {
                try await client.api().signUp(body: .json(.init(email: "busy@example.com", password: "secret-password"))).ok.body.json.data
                    .tokens.accessToken
            }
            let api = client.api(token)
            let outcomes = try await withThrowingTaskGroup(of: (value: String?, refusal: Refusal?).self) { group in
                for index in 0..<160 {
                    group.addTask {
                        try await outcome {
                            try await api.createTemplate(
                                body: .json(
                                    .init(
                                        exercises: [.init(exerciseId: "Barbell_Squat", sets: [.init(targetReps: 5)])],
                                        idempotencyKey: "burst-\(index)", name: "Burst \(index)"))
                            ).ok.body.json.data.id
                        }
                    }
                }
                var outcomes: [(value: String?, refusal: Refusal?)] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            var created: Set<String> = []
            var refused = 0
            for outcome in outcomes {
                if let id = outcome.value {
                    created.insert(id)
                } else if let refusal = outcome.refusal, refusal.status == 503 {
                    refused += 1
                    #expect(refusal.code == "UNAVAILABLE" && refusal.details["retry_after_seconds"] != nil, "\(refusal)")
                } else {
                    Issue.record("neither served nor refused for the moment: \(outcome)")
                }
            }
            let listed = try await untilServed("getTemplates") { try await api.getTemplates(body: .json(.init())).ok.body.json.data.items }
            let stored = Set(listed.map(\.id))
            #expect(created.isSubset(of: stored), "every 200 is stored: \(created.subtracting(stored))")
            #expect(refused > 0 || created.count == 160, "either the pool was saturated, or everything was served")
        }
    }
}
