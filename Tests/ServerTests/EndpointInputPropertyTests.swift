import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import Subscription
import TestSupport
import Testing

/// Input never traps (docs/platform.md): generated bodies (`GeneratedBodies`) to every operation the OpenAPI
/// document names, and generated queries to its reading ones, from a premium user with a workout in progress.
/// Every request gets an answer that is not `INTERNAL`, and the server still answers `/health` at the end.
@Suite struct EndpointInputPropertyTests {
    /// Ends the session or the account the rest of the run uses; called last.
    static let lastOperations: Set<String> = ["/signOut", "/deleteAccount", "/revokeAllSessions"]

    /// The import that once stopped the process: a Strong row whose Duration (`1e16` seconds, `inf`, `1e16h`) puts
    /// the workout's end beyond any 64-bit millisecond count. Each such row is skipped with its reason, the rest of
    /// the file imports, and the server goes on answering.
    @Test(arguments: TestDatabases.engines)
    func theImportThatStoppedTheProcessIsAnsweredRowByRow(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("import-crash@example.com")
            let content = """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
                2024-03-04 18:30:00,Push,1e16,Bench Press (Barbell),1,80,8,0,0,,,
                2024-03-05 18:30:00,Push,inf,Bench Press (Barbell),1,80,8,0,0,,,
                2024-03-06 18:30:00,Push,1e16h,Bench Press (Barbell),1,80,8,0,0,,,
                2024-03-07 18:30:00,Push,1h 5m,Bench Press (Barbell),1,80,8,0,0,,,
                """
            let reply = try await client.api(token).importWorkouts(body: .json(.init(content: content, format: .strongCsv))).ok.body.json
                .data
            #expect(reply.imported == 1)
            #expect(reply.skipped.map(\.row) == [2, 3, 4], "\(reply.skipped)")
            #expect(try await client.get("/health").status == .ok)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func everyOperationAnswersGeneratedInput(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("fuzz@example.com")
            let api = client.api(token)
            let userId = try await api.getUser(body: .json(.init())).ok.body.json.data.id
            _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")
            let template = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [
                            .init(exerciseId: "Barbell_Bench_Press_-_Medium_Grip", sets: [.init(targetReps: 8, targetWeightKg: 60)])
                        ],
                        name: "Push"))
            ).ok.body.json.data
            let started = try await api.startActiveWorkout(body: .json(.init(templateId: template.id))).ok.body.json.data

            let documentBytes = try await client.get("/openapi.json").body
            let document = try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(documentBytes.readableBytesView))
            var bodies = GeneratedBodies(document: document)
            try bodies.learn(fromAnswer: template)
            try bodies.learn(fromAnswer: started)
            var operations: [(path: String, method: String, operation: JSONValue)] = []
            if case .object(let paths)? = document["paths"] {
                for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
                    guard case .object(let methods) = item else { continue }
                    for (method, operation) in methods.sorted(by: { $0.key < $1.key }) { operations.append((path, method, operation)) }
                }
            }
            operations.sort { Self.lastOperations.contains($1.path) && !Self.lastOperations.contains($0.path) }
            #expect(operations.count > 60)

            var random = SeededRandomNumberGenerator(seed: 4806)
            var cases = 0
            for (path, method, operation) in operations {
                let rounds = Self.lastOperations.contains(path) ? 3 : (path == "/streamAgentNormalized" ? 60 : 30)
                for _ in 0..<rounds {
                    var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
                    headers[HTTPField.Name("X-Idempotency-Key")!] = "k\(cases)"
                    let response: TestResponse
                    var sent = ""
                    if method == "get" {
                        sent = Self.query(operation, bodies: bodies, using: &random)
                        response = try await client.execute(uri: path + sent, method: .get, headers: headers)
                    } else {
                        let schema = operation["requestBody"]?["content"]?["application/json"]?["schema"]
                        sent = bodies.body(for: schema, using: &random)
                        response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: sent))
                    }
                    cases += 1
                    let text = String(buffer: response.body)
                    #expect(
                        response.status.code < 500 || response.status == .serviceUnavailable,
                        "\(method) \(path) \(sent) → \(response.status) \(text)")
                    #expect(!text.contains("\"INTERNAL\""), "\(method) \(path) \(sent) → \(text.prefix(300))")
                    if response.status == .ok, path != "/openapi.json",
                        let json = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
                    {
                        bodies.learn(from: json)
                    }
                }
            }
            #expect(cases > 1500)
            #expect(try await client.get("/health").status == .ok)
        }
    }

    /// A query string for a reading operation: each declared parameter now and then, with generated text.
    static func query(_ operation: JSONValue, bodies: GeneratedBodies, using random: inout SeededRandomNumberGenerator) -> String {
        guard let parameters = operation["parameters"]?.arrayValue else { return "" }
        var pairs: [String] = []
        for parameter in parameters where Bool.random(using: &random) {
            guard let name = parameter["name"]?.stringValue else { continue }
            let hostility = HostileText.pick([0, 0.1, 0.5], using: &random)
            let value = bodies.json(for: parameter["schema"], name: name, hostility: hostility, using: &random)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            pairs.append("\(name)=\(encoded)")
        }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }
}
