/// Version 1 of the schema, written once for every backend: the tables, keys and indexes as a
/// script in a backend's ``SchemaDialect``. Each backend's list of steps starts with it (PostgreSQL
/// adds its notification triggers); later versions are steps appended to those lists.
///
/// Times are BIGINT milliseconds since 1970, UUIDs lower-case text. Keys and unique constraints are
/// named, so a conflict maps to a field by its constraint whatever the database would have called
/// it (PostgreSQL reports the name; SQLite reports the columns).
public enum SchemaBaseline {
    /// The baseline's tables and indexes in `dialect`:
    /// - `users`: unique by nickname key, email key and both UTS #39 confusable skeletons of the
    ///   nickname (of the case-folded key and of the name as shown); the second factor's summary,
    ///   the admin role, the disabled state and whether an Apple ID is linked, read with every
    ///   session; the operators' search indexes (``adminSearchIndexes``).
    /// - `sessions`: each keeps its current refresh token (generation, keyed hash, and the
    ///   fingerprint of the client that traded the generation before, `NULL` for the sign-in's
    ///   token), how its login was authenticated (`amr`), and the address of its last use
    ///   (forgotten when it ends; no index names it, since every refresh writes it). By account and
    ///   opening time, so an account's last login is one index entry.
    /// - one-time codes, verification tokens, signing keys, settings, the outbox (mail, and other
    ///   deliveries by `kind`), login throttles and fixed-window rate counters;
    /// - `pending_signups`: details-first sign-ups holding their nickname (by key and both
    ///   skeletons) until they expire, with the fingerprint of the client that made each (`NULL`:
    ///   none known) and whether it replaced another client's;
    /// - the second factor: authenticator apps (secret sealed, the last step accepted), recovery
    ///   codes as keyed hashes, login challenges (`first_factor` `NULL`: the password);
    /// - passkeys (credential id unique across accounts) and their WebAuthn challenges;
    /// - the audit log of operator actions, the account's security history (read newest first per
    ///   account, pruned by age) and hourly counters (one row per hour and name, only added to);
    /// - Sign in with Apple: linked Apple IDs (one per account), continuations of new Apple users
    ///   waiting for a nickname, and identity tokens accepted already (each until it expires).
    public static func script(_ d: SchemaDialect) -> String {
        """
        CREATE TABLE users (
            id TEXT NOT NULL,
            username TEXT NOT NULL,
            username_key \(d.key) NOT NULL,
            email TEXT NOT NULL,
            email_key \(d.key) NOT NULL,
            password_hash TEXT NOT NULL,
            mbti TEXT NOT NULL,
            email_verified \(d.flag) NOT NULL,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            username_skeleton TEXT NOT NULL,
            username_display_skeleton TEXT NOT NULL,
            totp_enabled \(d.flag) NOT NULL DEFAULT \(d.no),
            recovery_codes_left INTEGER NOT NULL DEFAULT 0,
            is_admin \(d.flag) NOT NULL DEFAULT \(d.no),
            disabled_at BIGINT,
            apple_linked \(d.flag) NOT NULL DEFAULT \(d.no),
            CONSTRAINT users_pkey PRIMARY KEY (id),
            CONSTRAINT users_username_key_key UNIQUE (username_key),
            CONSTRAINT users_email_key_key UNIQUE (email_key),
            CONSTRAINT users_username_skeleton_key UNIQUE (username_skeleton),
            CONSTRAINT users_username_display_skeleton_key UNIQUE (username_display_skeleton)
        );
        CREATE INDEX users_admins ON users (username_key) WHERE is_admin = TRUE;
        \(adminSearchIndexes)
        CREATE TABLE sessions (
            id TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            user_agent TEXT,
            revoked_at BIGINT,
            amr TEXT NOT NULL,
            refresh_generation BIGINT NOT NULL,
            refresh_hash \(d.bytes) NOT NULL,
            refreshed_by \(d.bytes),
            client_address TEXT,
            CONSTRAINT sessions_pkey PRIMARY KEY (id)
        );
        CREATE INDEX sessions_user_created ON sessions (user_id, created_at);
        CREATE TABLE codes (
            email_key TEXT NOT NULL,
            purpose TEXT NOT NULL,
            code_hash \(d.bytes) NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            CONSTRAINT codes_pkey PRIMARY KEY (email_key, purpose)
        );
        CREATE TABLE verification_tokens (
            hash \(d.bytes) NOT NULL,
            email_key TEXT NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT verification_tokens_pkey PRIMARY KEY (hash)
        );
        CREATE TABLE signing_keys (
            kid TEXT NOT NULL,
            seed \(d.bytes) NOT NULL,
            public_key \(d.bytes) NOT NULL,
            created_at BIGINT NOT NULL,
            retired_at BIGINT,
            CONSTRAINT signing_keys_pkey PRIMARY KEY (kid)
        );
        CREATE TABLE settings (
            name TEXT NOT NULL,
            value \(d.bytes) NOT NULL,
            CONSTRAINT settings_pkey PRIMARY KEY (name)
        );
        CREATE TABLE outbox (
            id TEXT NOT NULL,
            recipient TEXT NOT NULL,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at BIGINT NOT NULL,
            kind TEXT NOT NULL DEFAULT 'mail',
            CONSTRAINT outbox_pkey PRIMARY KEY (id)
        );
        CREATE INDEX outbox_next_attempt_at ON outbox (next_attempt_at);
        CREATE TABLE login_throttles (
            key TEXT NOT NULL,
            failures INTEGER NOT NULL,
            window_start BIGINT NOT NULL,
            locked_until BIGINT,
            lockouts INTEGER NOT NULL,
            CONSTRAINT login_throttles_pkey PRIMARY KEY (key)
        );
        CREATE TABLE rate_counters (
            key TEXT NOT NULL,
            count INTEGER NOT NULL,
            window_start BIGINT NOT NULL,
            CONSTRAINT rate_counters_pkey PRIMARY KEY (key)
        );
        CREATE TABLE pending_signups (
            email_key TEXT NOT NULL,
            email TEXT NOT NULL,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            mbti TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            username_skeleton TEXT NOT NULL,
            username_display_skeleton TEXT NOT NULL,
            client \(d.bytes),
            contested \(d.flag) NOT NULL DEFAULT \(d.no),
            CONSTRAINT pending_signups_pkey PRIMARY KEY (email_key),
            CONSTRAINT pending_signups_username_key_key UNIQUE (username_key),
            CONSTRAINT pending_signups_username_skeleton_key UNIQUE (username_skeleton),
            CONSTRAINT pending_signups_username_display_skeleton_key UNIQUE (username_display_skeleton)
        );
        CREATE INDEX pending_signups_expires_at ON pending_signups (expires_at);
        CREATE TABLE totp_factors (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            secret \(d.bytes) NOT NULL,
            created_at BIGINT NOT NULL,
            confirmed_at BIGINT,
            last_step BIGINT,
            CONSTRAINT totp_factors_pkey PRIMARY KEY (user_id)
        );
        CREATE TABLE recovery_codes (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            code_hash \(d.bytes) NOT NULL,
            CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, code_hash)
        );
        CREATE TABLE mfa_challenges (
            hash \(d.bytes) NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            first_factor TEXT,
            CONSTRAINT mfa_challenges_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX mfa_challenges_user_id ON mfa_challenges (user_id);
        CREATE TABLE passkeys (
            id TEXT NOT NULL,
            credential_id \(d.bytes) NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            public_key \(d.bytes) NOT NULL,
            algorithm INTEGER NOT NULL,
            sign_count BIGINT NOT NULL,
            backup_eligible \(d.flag) NOT NULL,
            backed_up \(d.flag) NOT NULL,
            aaguid \(d.bytes) NOT NULL,
            transports TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT,
            CONSTRAINT passkeys_pkey PRIMARY KEY (id),
            CONSTRAINT passkeys_credential_id_key UNIQUE (credential_id)
        );
        CREATE INDEX passkeys_user_id ON passkeys (user_id);
        CREATE TABLE webauthn_challenges (
            hash \(d.bytes) NOT NULL,
            purpose TEXT NOT NULL,
            user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
            expires_at BIGINT NOT NULL,
            CONSTRAINT webauthn_challenges_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX webauthn_challenges_expires_at ON webauthn_challenges (expires_at);
        CREATE TABLE audit_events (
            id TEXT NOT NULL,
            at BIGINT NOT NULL,
            actor TEXT NOT NULL,
            target_id TEXT,
            action TEXT NOT NULL,
            reason TEXT,
            request_id TEXT,
            CONSTRAINT audit_events_pkey PRIMARY KEY (id)
        );
        CREATE INDEX audit_events_at ON audit_events (at, id);
        CREATE TABLE security_events (
            id TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            at BIGINT NOT NULL,
            type TEXT NOT NULL,
            client_address TEXT,
            device_name TEXT,
            detail TEXT,
            CONSTRAINT security_events_pkey PRIMARY KEY (id)
        );
        CREATE INDEX security_events_user_at ON security_events (user_id, at, id);
        CREATE INDEX security_events_at ON security_events (at);
        CREATE TABLE hourly_counters (
            hour BIGINT NOT NULL,
            name TEXT NOT NULL,
            value BIGINT NOT NULL,
            CONSTRAINT hourly_counters_pkey PRIMARY KEY (hour, name)
        );
        CREATE TABLE apple_identities (
            subject TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            client_id TEXT NOT NULL,
            email TEXT NOT NULL,
            refresh_token \(d.bytes),
            created_at BIGINT NOT NULL,
            CONSTRAINT apple_identities_pkey PRIMARY KEY (subject),
            CONSTRAINT apple_identities_user_id_key UNIQUE (user_id)
        );
        CREATE TABLE apple_continuations (
            hash \(d.bytes) NOT NULL,
            subject TEXT NOT NULL,
            client_id TEXT NOT NULL,
            email TEXT NOT NULL,
            refresh_token \(d.bytes),
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT apple_continuations_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX apple_continuations_expires_at ON apple_continuations (expires_at);
        CREATE TABLE apple_used_tokens (
            hash \(d.bytes) NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT apple_used_tokens_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX apple_used_tokens_expires_at ON apple_used_tokens (expires_at);
        """
    }

    /// The operators' account search: every filter is a leading column of each index (the
    /// disabled state by which of a pair of partial indexes holds the account), so a search reads
    /// only accounts that pass its filters, in its order: newest first (`created_at, id`), or by
    /// the nickname's or the address's key for a prefix (the key range), the creation time beside
    /// the key so a time window is checked in the index. The time indexes hold both keys too, so a
    /// prefix inside a short window is found in the index alone (`disabled_at` comes last in each:
    /// SQLite reads a partial index alone only when it holds the column of its own condition).
    /// `AdminUserSearch` says how each search uses them.
    private static let adminSearchIndexes = """
        CREATE INDEX users_search_created_enabled ON users (email_verified, totp_enabled, created_at, id, username_key, email_key, disabled_at)
            WHERE disabled_at IS NULL;
        CREATE INDEX users_search_nickname_enabled ON users (email_verified, totp_enabled, username_key, created_at, id, disabled_at)
            WHERE disabled_at IS NULL;
        CREATE INDEX users_search_email_enabled ON users (email_verified, totp_enabled, email_key, created_at, id, disabled_at)
            WHERE disabled_at IS NULL;
        CREATE INDEX users_search_created_disabled ON users (email_verified, totp_enabled, created_at, id, username_key, email_key, disabled_at)
            WHERE disabled_at IS NOT NULL;
        CREATE INDEX users_search_nickname_disabled ON users (email_verified, totp_enabled, username_key, created_at, id, disabled_at)
            WHERE disabled_at IS NOT NULL;
        CREATE INDEX users_search_email_disabled ON users (email_verified, totp_enabled, email_key, created_at, id, disabled_at)
            WHERE disabled_at IS NOT NULL;
        """
}

/// How a backend spells what ``SchemaBaseline`` leaves open.
public struct SchemaDialect: Sendable {
    /// Bytes: `BLOB`, `BYTEA`.
    public let bytes: String
    /// A flag: `INTEGER` holding 0 or 1, or `BOOLEAN`.
    public let flag: String
    /// A flag's false, for defaults: `0`, `FALSE`.
    public let no: String
    /// A unique key that compares byte by byte, so a prefix of a key is a range of its index
    /// whatever the database's default collation (equality, and so uniqueness, is unchanged).
    public let key: String

    /// SQLite's spelling (which compares text byte by byte already).
    public static let sqlite = SchemaDialect(bytes: "BLOB", flag: "INTEGER", no: "0", key: "TEXT")
    /// PostgreSQL's spelling.
    public static let postgres = SchemaDialect(bytes: "BYTEA", flag: "BOOLEAN", no: "FALSE", key: #"TEXT COLLATE "C""#)
}
