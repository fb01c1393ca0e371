import Contracts
import Fakes
import Logging
import Synchronization
import Testing

@testable import Platform

/// Who the client is for rate limits: the socket's peer, or behind trusted proxies what they forwarded.
@Suite struct ClientAddressTests {
    @Test func addressesAsWritten() throws {
        #expect(IPAddress("192.0.2.1")?.rateLimitKey == "192.0.2.1")
        #expect(IPAddress(" 192.0.2.1:8443 ")?.rateLimitKey == "192.0.2.1")
        #expect(IPAddress("::ffff:192.0.2.1")?.rateLimitKey == "192.0.2.1", "IPv4-mapped: the IPv4 client")
        #expect(IPAddress("[2001:db8:1:2:aaaa::1]:443")?.rateLimitKey == "2001:db8:1:2::/64")
        #expect(IPAddress("::1")?.rateLimitKey == "::/64")
        for junk in ["", "unknown", "192.0.2", "192.0.2.1:port", "[2001:db8::1", "2001:db8::1]", "999.0.0.1", "_hidden"] {
            #expect(IPAddress(junk) == nil, "\(junk)")
        }
        #expect(IPAddress("192.0.2.1:80", allowingPort: false) == nil)
    }

    /// One IPv6 host holds a whole /64: its addresses share a key; the next /64 is someone else.
    @Test func ipv6ClientsCountByTheirNetwork() {
        let key = { (peer: String) in ClientAddress.key(peer: peer, forwardedFor: nil, trusted: .none) }
        #expect(key("2001:db8:0:7::1") == key("2001:db8:0:7:ffff:ffff:ffff:fffe"))
        #expect(key("2001:db8:0:7::1") != key("2001:db8:0:8::1"))
        #expect(key("192.0.2.1") != key("192.0.2.2"))
    }

    @Test func trustedProxySettings() throws {
        let trusted = try TrustedProxies(parsing: ["10.0.0.0/8", "192.0.2.7", "fd00::/8", "::ffff:172.16.0.0/108"])
        #expect(trusted.contains(try #require(IPAddress("10.200.3.4"))))
        #expect(!trusted.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(trusted.contains(try #require(IPAddress("192.0.2.7"))))
        #expect(!trusted.contains(try #require(IPAddress("192.0.2.8"))))
        #expect(trusted.contains(try #require(IPAddress("fd12::5"))))
        #expect(!trusted.contains(try #require(IPAddress("fe80::5"))))
        #expect(trusted.contains(try #require(IPAddress("172.16.9.9"))), "an IPv4-mapped network is the IPv4 network")
        #expect(!trusted.contains(try #require(IPAddress("172.32.0.1"))))
        #expect(try TrustedProxies(parsing: ["0.0.0.0/0"]).contains(try #require(IPAddress("203.0.113.1"))))
        for bad in ["10.0.0.0/33", "fd00::/129", "10.0.0.0/x", "proxy.internal", "10.0.0.1:80", "[fd00::1]", "10.0.0.0/"] {
            #expect(throws: ServiceError.self, "\(bad)") { try TrustedProxies(parsing: [bad]) }
        }
        let refused = try? TrustedProxies(parsing: ["10.0.0.0/8", "nope"])
        #expect(refused == nil)
    }

    @Test func theClientBehindTrustedProxies() throws {
        let trusted = try TrustedProxies(parsing: ["10.0.0.0/8"])
        func key(_ peer: String, _ forwarded: String?) -> String? {
            ClientAddress.key(peer: peer, forwardedFor: forwarded, trusted: trusted)
        }
        // The proxy appended the address it was reached from.
        #expect(key("10.0.0.2", "203.0.113.9") == "203.0.113.9")
        // Anything the client wrote itself sits left of that, and is never believed.
        #expect(key("10.0.0.2", "198.51.100.1, 203.0.113.9") == "203.0.113.9")
        #expect(key("10.0.0.2", "forged, 203.0.113.9") == "203.0.113.9")
        // Two proxies: the inner one is passed over.
        #expect(key("10.0.0.2", "203.0.113.9, 10.0.0.9") == "203.0.113.9")
        #expect(key("10.0.0.2", "[2001:db8:5:6::7]:50000, 10.0.0.9") == "2001:db8:5:6::/64")
        // A request from inside the proxies' network.
        #expect(key("10.0.0.2", "10.1.1.1") == "10.1.1.1")
        // No header, or one a proxy did not write plainly: the peer.
        #expect(key("10.0.0.2", nil) == "10.0.0.2")
        #expect(key("10.0.0.2", "203.0.113.9, unknown") == "10.0.0.2")
        // A peer that is no trusted proxy: its header is ignored.
        #expect(key("203.0.113.50", "198.51.100.1") == "203.0.113.50")
        // Nothing trusted: the header is ignored whoever sends it.
        #expect(ClientAddress.key(peer: "10.0.0.2", forwardedFor: "203.0.113.9", trusted: .none) == "10.0.0.2")
        #expect(ClientAddress.key(peer: nil, forwardedFor: "203.0.113.9", trusted: trusted) == nil)
    }

    @Test func theSettingIsReadFromTheEnvironment() throws {
        #expect(try AppConfig.fromEnvironment([:]).trustedProxies.isEmpty)
        let config = try AppConfig.fromEnvironment(["POVVER_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"])
        #expect(config.trustedProxies == (try TrustedProxies(parsing: ["10.0.0.0/8", "127.0.0.1"])))
        do {
            _ = try AppConfig.fromEnvironment(["POVVER_TRUSTED_PROXIES": "10.0.0.0/8,lb.internal"])
            Issue.record("a host name is no address")
        } catch let error as ServiceError {
            #expect(error.code == .invalidArgument)
            #expect(error.details["field"] == "POVVER_TRUSTED_PROXIES")
            #expect(error.message.contains("'lb.internal'"))
        }
    }
}

/// Behind a load balancer without `POVVER_TRUSTED_PROXIES` every user shares its address: the first forwarded
/// request from a peer that is not trusted says so, once.
@Suite struct UntrustedForwardingTests {
    @Test func aForwardedRequestFromAnUntrustedPeerIsWarnedOfOnce() throws {
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .info
        let trusting = ObservabilityMiddleware(
            metrics: ServerMetrics(), ids: SequentialIDGenerator(), trustedProxies: try TrustedProxies(parsing: ["10.0.0.0/8"]))
        trusting.warnIfUntrusted(peer: "10.1.2.3", logger: logger)
        #expect(records.entries.withLock { $0.isEmpty }, "a trusted proxy's header is expected")
        trusting.warnIfUntrusted(peer: "192.0.2.7", logger: logger)
        trusting.warnIfUntrusted(peer: "192.0.2.8", logger: logger)
        let logged = records.entries.withLock { $0 }
        #expect(logged.count == 1 && logged.first?.1["event"] == "untrusted_forwarding" && logged.first?.1["peer"] == "192.0.2.7")
        #expect(logged.first?.0.contains("POVVER_TRUSTED_PROXIES") == true)
        let unconfigured = ObservabilityMiddleware(metrics: ServerMetrics(), ids: SequentialIDGenerator())
        unconfigured.warnIfUntrusted(peer: "10.1.2.3", logger: logger)
        #expect(records.entries.withLock { $0.count } == 2, "with no proxy trusted, any forwarding peer is warned of")
    }
}
