import Foundation

/// Who sends a product event: the app (`trackEvents`) or the server (domain events, `ProductEventSink`).
public enum ProductEventSource: String, Sendable, Codable, CaseIterable {
    case client
    case server
}

/// One event of the product taxonomy (docs/analytics.md "Product events"): its name, its typed parameters, who
/// may send it, and the milestone its first occurrence makes.
public struct ProductEventDefinition: Sendable, Equatable {
    /// The JSON type a parameter must have. Numbers are never negative (they are lengths, counts and durations).
    public enum ParameterType: Sendable, Equatable {
        /// 1 to `ProductEventTaxonomy.maxStringLength` characters.
        case string
        /// One of the listed strings.
        case oneOf([String])
        /// A whole number (`12` or `12.0`), stored as an integer.
        case integer
        /// Any number.
        case number
    }

    public struct Parameter: Sendable, Equatable {
        public let name: String
        public let type: ParameterType
        public let required: Bool

        public init(_ name: String, _ type: ParameterType, required: Bool = true) {
            self.name = name
            self.type = type
            self.required = required
        }
    }

    public let name: String
    public let parameters: [Parameter]
    /// Who may record it. Empty for a milestone: only the server derives those, from the event that triggers them.
    public let sources: Set<ProductEventSource>
    /// The milestone the user's first event of this name makes (`message_sent` → `first_message_sent`).
    public let milestone: String?

    public init(_ name: String, _ parameters: [Parameter] = [], from sources: Set<ProductEventSource>, milestone: String? = nil) {
        self.name = name
        self.parameters = parameters
        self.sources = sources
        self.milestone = milestone
    }

    /// A milestone is recorded by the server alone, once per user.
    public var isMilestone: Bool { sources.isEmpty }
}
