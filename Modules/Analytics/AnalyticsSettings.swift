import Platform

/// Analytics' own settings: how many days raw product events are kept (`POVVER_PRODUCT_EVENTS_RETENTION_DAYS`,
/// 400, 1–3650) and how many events one user may send through `trackEvents` per hour
/// (`POVVER_TRACK_EVENTS_PER_HOUR`, 600, 1–100000). A bad value throws `INVALID_ARGUMENT` naming the variable.
public struct AnalyticsSettings: Sendable {
    public var productEventRetentionDays: Int
    public var trackEventsPerHour: Int

    public init(productEventRetentionDays: Int = 400, trackEventsPerHour: Int = 600) {
        self.productEventRetentionDays = productEventRetentionDays
        self.trackEventsPerHour = trackEventsPerHour
    }

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        productEventRetentionDays = try reader.integer("POVVER_PRODUCT_EVENTS_RETENTION_DAYS", default: 400, range: 1...3650)
        trackEventsPerHour = try reader.integer("POVVER_TRACK_EVENTS_PER_HOUR", default: 600, range: 1...100_000)
    }
}
