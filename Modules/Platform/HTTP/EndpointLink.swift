import Contracts

/// A way from one endpoint's answer to another operation (an OpenAPI link): the fields of the target's request
/// body that come from places in the answer. A client reading the document, or the fuzzer's stateful phase,
/// chains `createTemplate` → `getTemplate` with the id the first answered instead of one it guessed.
public struct EndpointLink: Sendable, Equatable {
    /// The endpoint whose answer the link starts from, and the one it leads to, by name (`createTemplate`).
    public var source: String
    public var target: String
    /// Fields of the target's body; the `answer(_:)` values among them are read from the source's answer.
    public var body: [String: JSONValue]

    public init(from source: String, to target: String, _ body: [String: JSONValue]) {
        self.source = source
        self.target = target
        self.body = body
    }

    /// A place in the answer's `data`, as a JSON pointer (`/id`, `/items/0/id`).
    public static func answer(_ pointer: String) -> JSONValue { .string("$response.body#/data\(pointer)") }
}

extension Endpoint {
    /// The name the endpoint is called by: its path without the slash (`/getTemplate` → `getTemplate`).
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// `endpoints`, each carrying the links that start from it.
    public static func linking(_ endpoints: [Endpoint], _ links: [EndpointLink]) -> [Endpoint] {
        endpoints.map { endpoint in
            var linked = endpoint
            linked.links += links.filter { $0.source == endpoint.name }
            return linked
        }
    }
}
