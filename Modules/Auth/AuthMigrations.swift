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
    ]
}
