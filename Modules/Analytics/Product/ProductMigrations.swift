import Platform

/// Product analytics' tables (versions 101 and up of the module `analytics`; training analytics uses 1–99).
/// Events keep their parameters as JSON text: they are shown, never aggregated by parameter, except the few the
/// funnel reads, which it reads with the event's name. Milestones are a row per user and milestone, so the
/// unique key makes "exactly once" hold whatever runs concurrently.
enum ProductMigrations {
    static let all: [Migration] = [
        Migration(version: 101, name: "product events and milestones") { _ in
            [
                """
                CREATE TABLE analytics_product_events (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    params TEXT NOT NULL,
                    occurred_at BIGINT NOT NULL,
                    received_at BIGINT NOT NULL,
                    install_id TEXT,
                    source TEXT NOT NULL
                )
                """,
                "CREATE INDEX analytics_product_events_user ON analytics_product_events (user_id, occurred_at)",
                "CREATE INDEX analytics_product_events_name ON analytics_product_events (name, occurred_at)",
                """
                CREATE TABLE analytics_product_milestones (
                    user_id TEXT NOT NULL,
                    milestone TEXT NOT NULL,
                    reached_at BIGINT NOT NULL,
                    event_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, milestone)
                )
                """,
            ]
        },
        // Events expire by `occurred_at` (`ProductEventRetention`); the purge finds the oldest by this index.
        Migration(version: 102, name: "product events expire") { _ in
            ["CREATE INDEX analytics_product_events_time ON analytics_product_events (occurred_at)"]
        },
    ]
}
