import Contracts
import Foundation
import Logging
import Platform
import SQLKit
import X509

/// Subscription: App Store subscriptions (verified V2 notifications and StoreKit 2 sync), the premium gate and
/// the operator's override.
public struct SubscriptionModule: Sendable {
    public let service: SubscriptionService
    public let premiumGate: SQLPremiumGate
    public let eraser: SubscriptionUserDataEraser

    public init(
        database: Database, verifier: AppStoreDataVerifier, clock: any WallClock, ids: any IDGenerator, metrics: ServerMetrics? = nil,
        logger: Logger, lapseGrace: TimeInterval = SubscriptionSettings.defaultLapseGrace, productIDs: Set<String>? = nil
    ) {
        self.service = SubscriptionService(
            database: database, verifier: verifier, clock: clock, ids: ids, metrics: metrics, logger: logger, lapseGrace: lapseGrace,
            productIDs: productIDs)
        self.premiumGate = SQLPremiumGate(database: database, clock: clock, metrics: metrics, logger: logger, lapseGrace: lapseGrace)
        self.eraser = SubscriptionUserDataEraser(database: database)
    }

    public static let migrations = SubscriptionMigrations.all

    /// A new account gets its row at once, so the webhook finds it by `appAccountToken` from the first purchase.
    var accountCreatedHandler: EventHandler {
        let service = self.service
        return .on(AccountCreated.self, name: "subscription.prepare_account") { event, _ in
            try await service.prepare(userId: event.userId)
        }
    }

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: ModuleName.subscription, migrations: Self.migrations, endpoints: endpoints(), eventHandlers: [accountCreatedHandler],
            eraser: eraser)
    }
}

/// Removes every Subscription row of a user: state, transactions, the audit trail, and orphaned notifications
/// that carry the user's `appAccountToken`.
public struct SubscriptionUserDataEraser: UserDataEraser {
    public let module = ModuleName.subscription
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func eraseUserData(userId: String) async throws {
        let token = AppAccountToken.forUser(userId)
        try await database.transaction { tx in
            for table in ["subscription_events", "subscription_transactions", "subscription_state"] {
                try await tx.sql.raw("DELETE FROM \(ident: table) WHERE user_id = \(bind: userId)").run()
            }
            try await tx.sql.raw("DELETE FROM subscription_events WHERE user_id IS NULL AND app_account_token = \(bind: token)").run()
        }
    }
}
