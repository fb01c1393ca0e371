import Contracts
import Foundation
import Logging
import Platform
import Subscription
import TestSupport

// Webhook verification throughput on one task (one core): notifications signed by a test PKI shaped like
// Apple's, each with a nested transaction and renewal info (three JWS, three chains). Then the whole webhook
// path (verify + SQLite transaction). Usage: subscription-bench [count]
let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
let pki = try AppStoreTestPKI()
let identity = AppStoreAppIdentity(bundleID: AppStoreTestPKI.bundleID, appAppleID: nil, environment: "Sandbox")
let verifier = AppStoreDataVerifier(roots: [pki.root], identity: identity)

func notifications(_ count: Int, users: Int) -> [String] {
    (0..<count).map { index in
        let user = "bench-user-\(index % users)"
        let signedDate = Date().addingTimeInterval(Double(index) / 1000 - 3600)
        let otid = "\(1_000_000_000 + index % users)"
        return pki.notification(
            type: index % 7 == 6 ? "DID_CHANGE_RENEWAL_STATUS" : "DID_RENEW", signedDate: signedDate,
            transaction: AppStoreTestPKI.transaction(
                originalTransactionId: otid, appAccountToken: AppAccountToken.forUser(user), expires: Date().addingTimeInterval(86_400),
                signedDate: signedDate),
            renewal: AppStoreTestPKI.renewal(originalTransactionId: otid, autoRenew: true, signedDate: signedDate))
    }
}

func measure(_ label: String, _ count: Int, _ body: () async throws -> Void) async rethrows {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
        String(
            format: "%-44@ %8.0f notifications/s  %8.1f µs each", label as NSString, Double(count) / seconds, seconds / Double(count) * 1e6)
    )
}

let signed = notifications(count, users: 100)
// Warm up (first-use costs: the root store, lazy statics).
for payload in signed.prefix(50) { _ = try await verifier.verifyNotification(payload) }
try await measure("verifyNotification (3 JWS, single task)", count) {
    for payload in signed { _ = try await verifier.verifyNotification(payload) }
}

var logger = Logger(label: "bench")
logger.logLevel = .critical
let path = FileManager.default.temporaryDirectory.appendingPathComponent("subscription-bench-\(UUID().uuidString).sqlite").path
let database = try await Database.open(.sqliteFile(path: path), logger: logger)
try await Migrator(database: database, logger: logger).migrate([
    Migrator.platformMigrations, ("subscription", SubscriptionModule.migrations),
])
let module = SubscriptionModule(database: database, verifier: verifier, clock: SystemClock(), ids: RandomIDGenerator(), logger: logger)
for user in 0..<100 { try await module.service.prepare(userId: "bench-user-\(user)") }
let fresh = notifications(count, users: 100)
try await measure("webhook path (verify + SQLite write)", count) {
    for payload in fresh { _ = try await module.service.receiveNotification(signedPayload: payload) }
}
try await measure("webhook replays (verify + duplicate check)", count) {
    for payload in fresh { _ = try await module.service.receiveNotification(signedPayload: payload) }
}
await database.shutdown()
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
