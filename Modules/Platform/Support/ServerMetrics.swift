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

    static let requests = MetricName("povver_http_requests_total", help: "HTTP requests by endpoint, method and status.")
    static let requestDuration = MetricName("povver_http_request_duration_seconds", help: "HTTP request latency by endpoint.")
    static let jobs = MetricName("povver_jobs_total", help: "Background job attempts by kind and outcome.")
    static let jobDuration = MetricName("povver_job_duration_seconds", help: "Background job attempt duration by kind.")

    func record(endpoint: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requests.descriptor, labels: [("endpoint", endpoint), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(descriptor: Self.requestDuration.descriptor, labels: [("endpoint", endpoint)], buckets: Self.buckets)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Counts a job attempt's outcome (`completed`, `retried`, `failed`, `lease_lost`).
    func recordJob(kind: String, outcome: String, duration: Duration) {
        registry.makeCounter(descriptor: Self.jobs.descriptor, labels: [("kind", kind), ("outcome", outcome)]).increment()
        registry.makeDurationHistogram(descriptor: Self.jobDuration.descriptor, labels: [("kind", kind)], buckets: Self.buckets)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// A metric's full name (e.g. `povver_subscription_notifications_total`) and its help text, which must be
    /// the same wherever it is recorded.
    public struct MetricName: Sendable {
        let name: String
        let help: String

        public init(_ name: String, help: String) {
            self.name = name
            self.help = help
        }

        var descriptor: MetricNameDescriptor { MetricNameDescriptor(metricName: name, unitName: "", helpText: help) }
    }

    /// Counts one occurrence of a module's event.
    public func increment(_ counter: MetricName, labels: [(String, String)] = []) {
        registry.makeCounter(descriptor: counter.descriptor, labels: labels).increment()
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
