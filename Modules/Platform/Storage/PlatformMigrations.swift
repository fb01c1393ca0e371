/// Platform's own tables: the outbox, the job queue, rate-limit counters, event handlers, erasures in progress.
enum PlatformMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "outbox and jobs") { engine in
            [
                """
                CREATE TABLE platform_outbox (
                    seq \(engine.autoIncrementPrimaryKey),
                    id TEXT NOT NULL UNIQUE,
                    type TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    occurred_at BIGINT NOT NULL,
                    dispatched_at BIGINT
                )
                """,
                "CREATE INDEX platform_outbox_pending ON platform_outbox (dispatched_at, seq)",
                """
                CREATE TABLE platform_jobs (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    status TEXT NOT NULL,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    max_attempts BIGINT NOT NULL,
                    run_at BIGINT NOT NULL,
                    lease_owner TEXT,
                    lease_expires_at BIGINT,
                    last_error TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    finished_at BIGINT
                )
                """,
                "CREATE INDEX platform_jobs_ready ON platform_jobs (status, run_at)",
                "CREATE INDEX platform_jobs_leases ON platform_jobs (status, lease_expires_at)",
            ]
        },
        Migration(version: 2, name: "rate limits") { _ in
            [
                """
                CREATE TABLE platform_rate_limits (
                    bucket TEXT PRIMARY KEY,
                    window_start BIGINT NOT NULL,
                    hits BIGINT NOT NULL
                )
                """
            ]
        },
        // Account deletion erases a user's events and their delivery jobs, so both name the user.
        Migration(version: 3, name: "user of events and jobs") { _ in
            [
                "ALTER TABLE platform_outbox ADD COLUMN user_id TEXT",
                "CREATE INDEX platform_outbox_user ON platform_outbox (user_id)",
                "ALTER TABLE platform_jobs ADD COLUMN user_id TEXT",
                "CREATE INDEX platform_jobs_user ON platform_jobs (user_id)",
            ]
        },
        // Finished jobs expire (`BackgroundRetention`); the purge finds the oldest of a status by this index.
        Migration(version: 4, name: "finished jobs expire") { _ in
            ["CREATE INDEX platform_jobs_finished ON platform_jobs (status, finished_at)"]
        },
        // Every replica registers the event handlers it runs (`OutboxDispatcher.registerHandlers`), so an event is
        // fanned out to the handlers of every version running (a rolling deploy), not only the dispatcher's own.
        Migration(version: 5, name: "event handlers of every replica") { _ in
            [
                """
                CREATE TABLE platform_event_handlers (
                    name TEXT PRIMARY KEY,
                    event_type TEXT NOT NULL,
                    seen_at BIGINT NOT NULL
                )
                """
            ]
        },
        // A rate-limit counter expires with its window (`BackgroundRetention`): one row per distinct key would
        // otherwise stay forever. Rows from before have no expiry (0) and go at the first purge, which only restarts
        // their window.
        Migration(version: 6, name: "rate-limit counters expire") { _ in
            [
                "ALTER TABLE platform_rate_limits ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0",
                "CREATE INDEX platform_rate_limits_expiry ON platform_rate_limits (expires_at)",
            ]
        },
        // Account deletion asks each module with tables for its pass and waits for every one to confirm
        // (`UserErasure`): a row per deletion ticket, pass and module, gone once the pass is done.
        Migration(version: 7, name: "user erasures per module") { _ in
            [
                """
                CREATE TABLE platform_erasures (
                    ticket TEXT NOT NULL,
                    pass BIGINT NOT NULL,
                    module TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    waiting_job TEXT NOT NULL,
                    requested_at BIGINT NOT NULL,
                    erased_at BIGINT,
                    PRIMARY KEY (ticket, pass, module)
                )
                """
            ]
        },
    ]
}
