import Foundation
import Prometheus
import Synchronization

/// The Prometheus registry behind `/metrics`: request latency and outcome per endpoint, job outcomes per kind.
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5),
    ]

    /// The request series already registered, so a request costs one dictionary lookup instead of building label
    /// arrays and going through the registry's name checks and lock (a few microseconds on every request).
    private let requestSeries = Mutex<[RequestSeriesKey: RequestSeries]>([:])

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    private struct RequestSeriesKey: Hashable {
        let endpoint: String
        let method: String
        let status: Int
    }

    private struct RequestSeries {
        let count: Counter
        let duration: DurationHistogram
    }

    static let requests = MetricName("povver_http_requests_total", help: "HTTP requests by endpoint, method and status.")
    static let requestDuration = MetricName("povver_http_request_duration_seconds", help: "HTTP request latency by endpoint.")
    static let jobs = MetricName("povver_jobs_total", help: "Background job attempts by kind and outcome.")
    static let jobDuration = MetricName("povver_job_duration_seconds", help: "Background job attempt duration by kind.")
    static let outboxEvents = MetricName(
        "povver_outbox_events_dispatched_total", help: "Domain events fanned out to their handlers, by type.")
    static let outboxLag = MetricName(
        "povver_outbox_lag_seconds", help: "Time from a domain event's commit to its fan-out to handlers (the outbox's lag).")
    static let lagBuckets: [Duration] = [
        .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
        .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(300),
    ]

    /// Counts a request and records its latency. The label values are bounded: `endpoint` is a route's path
    /// (or `unmatched`), `method` one the HTTP parser knows, `status` a status code.
    func record(endpoint: String, method: String, status: Int, duration: Duration) {
        let key = RequestSeriesKey(endpoint: endpoint, method: method, status: status)
        let series =
            requestSeries.withLock { $0[key] }
            ?? {
                // The registry returns the same series for the same name and labels, so two requests racing here
                // both count into it.
                let made = RequestSeries(
                    count: registry.makeCounter(
                        descriptor: Self.requests.descriptor,
                        labels: [("endpoint", endpoint), ("method", method), ("status", String(status))]),
                    duration: registry.makeDurationHistogram(
                        descriptor: Self.requestDuration.descriptor, labels: [("endpoint", endpoint)], buckets: Self.buckets))
                requestSeries.withLock { $0[key] = made }
                return made
            }()
        series.count.increment()
        series.duration.recordNanoseconds(duration.nanoseconds)
    }

    /// Counts a job attempt's outcome (`completed`, `retried`, `failed`, `lease_lost`, `unrecorded`: done, but
    /// recording it failed).
    func recordJob(kind: String, outcome: String, duration: Duration) {
        registry.makeCounter(descriptor: Self.jobs.descriptor, labels: [("kind", kind), ("outcome", outcome)]).increment()
        registry.makeDurationHistogram(descriptor: Self.jobDuration.descriptor, labels: [("kind", kind)], buckets: Self.buckets)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Counts an event fanned out and records how long it waited in the outbox since it was committed.
    func recordOutboxDispatch(type: String, lag: Duration) {
        registry.makeCounter(descriptor: Self.outboxEvents.descriptor, labels: [("type", type)]).increment()
        registry.makeDurationHistogram(descriptor: Self.outboxLag.descriptor, labels: [], buckets: Self.lagBuckets)
            .recordNanoseconds(max(0, lag.nanoseconds))
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

    /// Counts `amount` of a module's quantity (e.g. the coach model's tokens).
    public func add(_ counter: MetricName, labels: [(String, String)] = [], amount: Int) {
        guard amount > 0 else { return }
        registry.makeCounter(descriptor: counter.descriptor, labels: labels).increment(by: Int64(amount))
    }

    /// Records a module's latency on a histogram of the request buckets (e.g. the coach per lane and per tool).
    /// Label values must be bounded (names of lanes or tools, never ids).
    public func observe(_ histogram: MetricName, labels: [(String, String)] = [], duration: Duration) {
        registry.makeDurationHistogram(descriptor: histogram.descriptor, labels: labels, buckets: Self.buckets)
            .recordNanoseconds(max(0, duration.nanoseconds))
    }

    /// The Prometheus text exposition of every series.
    public func exposition() -> String { registry.emitToString() }
}

extension Duration {
    /// The duration in whole nanoseconds.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
