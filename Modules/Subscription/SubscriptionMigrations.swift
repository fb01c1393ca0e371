import Platform

/// Subscription's tables: one state row per user, the last applied `signedDate` per original transaction, and
/// the audit trail of every notification and sync (orphans included, with `user_id` NULL until claimed).
enum SubscriptionMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "state, transactions, events") { _ in
            [
                """
                CREATE TABLE subscription_state (
                    user_id TEXT PRIMARY KEY,
                    app_account_token TEXT NOT NULL UNIQUE,
                    tier TEXT NOT NULL,
                    status TEXT NOT NULL,
                    expires_at BIGINT,
                    auto_renew_enabled BIGINT,
                    product_id TEXT,
                    original_transaction_id TEXT,
                    override TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE subscription_transactions (
                    original_transaction_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    last_signed_date BIGINT NOT NULL
                )
                """,
                "CREATE INDEX subscription_transactions_user ON subscription_transactions (user_id)",
                """
                CREATE TABLE subscription_events (
                    id TEXT PRIMARY KEY,
                    user_id TEXT,
                    source TEXT NOT NULL,
                    notification_uuid TEXT UNIQUE,
                    notification_type TEXT,
                    subtype TEXT,
                    original_transaction_id TEXT,
                    app_account_token TEXT,
                    signed_date BIGINT,
                    outcome TEXT NOT NULL,
                    status_after TEXT,
                    tier_after TEXT,
                    document TEXT NOT NULL,
                    received_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX subscription_events_user ON subscription_events (user_id, received_at)",
                "CREATE INDEX subscription_events_token ON subscription_events (app_account_token)",
                "CREATE INDEX subscription_events_transaction ON subscription_events (original_transaction_id)",
            ]
        }
    ]
}
