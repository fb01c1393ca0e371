import Foundation
import Prometheus

/// The Prometheus registry behind `/metrics`: request latency and outcome per endpoint, job outcomes per kind.
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    func record(endpoint: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            name: "povver_http_requests_total",
            labels: [("endpoint", endpoint), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            name: "povver_http_request_duration_seconds", labels: [("endpoint", endpoint)], buckets: Self.buckets
        ).recordNanoseconds(duration.nanoseconds)
    }

    /// Counts a job attempt's outcome (`completed`, `retried`, `failed`, `lease_lost`).
    func recordJob(kind: String, outcome: String, duration: Duration) {
        registry.makeCounter(name: "povver_jobs_total", labels: [("kind", kind), ("outcome", outcome)]).increment()
        registry.makeDurationHistogram(name: "povver_job_duration_seconds", labels: [("kind", kind)], buckets: Self.buckets)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Counts one occurrence of a module's event (e.g. `povver_subscription_notifications_total{outcome}`).
    public func increment(_ name: String, labels: [(String, String)] = []) {
        registry.makeCounter(name: name, labels: labels).increment()
    }

    /// The Prometheus text exposition of every series.
    public func exposition() -> String { registry.emitToString() }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
