import Platform

/// Auth's tables: accounts, linked providers, profiles, sessions (refresh-token families), refresh tokens
/// and devices.
enum AuthMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "accounts, sessions, devices") { _ in
            [
                """
                CREATE TABLE auth_users (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL,
                    email_normalized TEXT NOT NULL UNIQUE,
                    email_verified BIGINT NOT NULL DEFAULT 0,
                    password_hash TEXT,
                    original_provider TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_sign_in_at BIGINT,
                    password_changed_at BIGINT
                )
                """,
                """
                CREATE TABLE auth_providers (
                    provider_id TEXT NOT NULL,
                    provider_uid TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
                    email TEXT,
                    linked_at BIGINT NOT NULL,
                    PRIMARY KEY (provider_id, provider_uid)
                )
                """,
                "CREATE UNIQUE INDEX auth_providers_user ON auth_providers (user_id, provider_id)",
                """
                CREATE TABLE auth_profiles (
                    user_id TEXT PRIMARY KEY REFERENCES auth_users (id) ON DELETE CASCADE,
                    name TEXT,
                    week_starts_on_monday BIGINT NOT NULL DEFAULT 1,
                    time_zone TEXT,
                    weight_format TEXT,
                    height_format TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE auth_sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
                    auth_time BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT NOT NULL,
                    revoked_at BIGINT,
                    revoke_reason TEXT
                )
                """,
                "CREATE INDEX auth_sessions_user ON auth_sessions (user_id)",
                """
                CREATE TABLE auth_refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    session_id TEXT NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                "CREATE INDEX auth_refresh_tokens_session ON auth_refresh_tokens (session_id)",
                "CREATE INDEX auth_refresh_tokens_user ON auth_refresh_tokens (user_id)",
                """
                CREATE TABLE auth_devices (
                    user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL,
                    platform TEXT NOT NULL,
                    push_token TEXT,
                    app_version TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, device_id)
                )
                """,
            ]
        },
        // Google and Apple sign-in: an SSO identity is `pending` until the user confirms the new account (its
        // profile is created then, with the name Apple gave only this once); ID-token nonces are spent once.
        Migration(version: 2, name: "provider sign-in: pending accounts, spent nonces") { _ in
            [
                "ALTER TABLE auth_users ADD COLUMN pending_name TEXT",
                "CREATE INDEX auth_users_status ON auth_users (status, created_at)",
                """
                CREATE TABLE auth_used_nonces (
                    nonce_hash TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX auth_used_nonces_expiry ON auth_used_nonces (expires_at)",
            ]
        },
        // Email flows and account deletion: the durable mail outbox, one-time codes (stored as digests), Apple
        // refresh tokens (sealed) to revoke at deletion, and deletion tickets (a deletion in progress).
        Migration(version: 3, name: "mail outbox, codes, Apple tokens, deletions") { _ in
            [
                """
                CREATE TABLE auth_mail_outbox (
                    id TEXT PRIMARY KEY,
                    user_id TEXT,
                    kind TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    body TEXT NOT NULL,
                    status TEXT NOT NULL,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL,
                    lease_expires_at BIGINT,
                    transport TEXT,
                    last_error TEXT,
                    created_at BIGINT NOT NULL,
                    sent_at BIGINT
                )
                """,
                "CREATE INDEX auth_mail_outbox_due ON auth_mail_outbox (status, next_attempt_at)",
                "CREATE INDEX auth_mail_outbox_user ON auth_mail_outbox (user_id)",
                """
                CREATE TABLE auth_codes (
                    code_hash TEXT PRIMARY KEY,
                    purpose TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    new_email TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                "CREATE INDEX auth_codes_user ON auth_codes (user_id, purpose)",
                """
                CREATE TABLE auth_apple_tokens (
                    user_id TEXT PRIMARY KEY,
                    client_id TEXT NOT NULL,
                    sealed_refresh_token TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE auth_deletions (
                    ticket TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL UNIQUE,
                    requested_at BIGINT NOT NULL,
                    apple_revoked_at BIGINT
                )
                """,
            ]
        },
        // A deletion runs every eraser twice: the ticket stays between the passes, with the first one's time.
        Migration(version: 4, name: "deletions: second pass") { _ in
            ["ALTER TABLE auth_deletions ADD COLUMN erased_at BIGINT"]
        },
        // Spent credentials expire (`CredentialRetention`): the purge finds the oldest by these indexes.
        Migration(version: 5, name: "spent credentials expire") { _ in
            [
                "CREATE INDEX auth_refresh_tokens_expiry ON auth_refresh_tokens (expires_at)",
                "CREATE INDEX auth_sessions_revoked ON auth_sessions (revoked_at)",
                "CREATE INDEX auth_codes_expiry ON auth_codes (expires_at)",
            ]
        },
        // A used refresh token keeps its successor, sealed, for the grace window in which a second refresh with it (an app
        // waking twice, a retry after a lost answer) gets the same successor instead of revoking the session.
        Migration(version: 6, name: "refresh grace") { _ in
            ["ALTER TABLE auth_refresh_tokens ADD COLUMN successor_sealed TEXT"]
        },
        // Sent mail is purged a month after sending (`CredentialRetention`), oldest first.
        Migration(version: 7, name: "sent mail purge") { _ in
            ["CREATE INDEX auth_mail_outbox_sent ON auth_mail_outbox (sent_at)"]
        },
        // Sessions are purged once expired, unrevoked ones included (`CredentialRetention`), oldest first.
        Migration(version: 8, name: "expired session purge") { _ in
            ["CREATE INDEX auth_sessions_last_used ON auth_sessions (last_used_at)"]
        },
    ]
}
