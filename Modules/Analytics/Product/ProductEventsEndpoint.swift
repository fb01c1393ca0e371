import Contracts
import Foundation
import Platform

/// `trackEvents`' body. The events stay loose JSON here so that one malformed event is rejected alone instead
/// of failing the whole request's decoding.
struct TrackEventsInput: Decodable, Sendable {
    var events: [JSONValue]
}

extension ProductAnalytics {
    static let trackEventsRequest = Schema.object(
        [
            // An item that is not such an event is rejected alone (listed in `rejected`), so any item is taken.
            "events": Schema.array(
                [
                    "anyOf": [
                        Schema.object(
                            [
                                "name": Schema.enumeration(
                                    ProductEventTaxonomy.all.filter { $0.sources.contains(.client) }.map(\.name)),
                                "params": Schema.freeform,
                                "occurred_at": Schema.timestamp,
                                "event_id": Schema.string(
                                    maxLength: ProductEventTaxonomy.maxIdLength, description: "a repeated id is stored once"),
                                "install_id": Schema.string(maxLength: ProductEventTaxonomy.maxIdLength),
                            ],
                            required: ["name", "occurred_at"]), ["description": "anything else: rejected alone, listed in `rejected`"],
                    ]
                ],
                maxItems: ProductEventIngestion.maxBatch)
        ],
        required: ["events"])

    static let trackEventsResponse = Schema.object(
        [
            "accepted": Schema.integer,
            "rejected": Schema.array(
                Schema.object(
                    ["index": Schema.integer, "code": Schema.string, "message": Schema.string, "field": Schema.string],
                    required: ["index", "code", "message"])),
        ],
        required: ["accepted", "rejected"])

    func endpoints() -> [Endpoint] {
        let ingestion = self.ingestion
        return [
            .rpc(
                "trackEvents", access: .user, tag: "Analytics",
                summary:
                    "Records up to 100 of the caller's product events; each bad event is rejected with its index and field, the rest stored.",
                request: Self.trackEventsRequest, response: Self.trackEventsResponse, input: TrackEventsInput.self
            ) { input, call in try await ingestion.track(userId: try call.userId(), events: input.events) }
        ]
    }
}
