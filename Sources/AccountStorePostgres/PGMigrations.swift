/// The PostgreSQL schema, one SQL script per version, oldest first: version N is `steps[N - 1]`.
///
/// It mirrors the SQLite backend's schema table for table and column for column: `BYTEA` for
/// blobs, `BIGINT` milliseconds since 1970 for times, lower-case text UUIDs, `BOOLEAN` flags.
/// Unique constraints are named so conflicts map to fields whatever the database would call them.
/// Never edit a step that has shipped; append a new one. The tables and queries avoid
/// PostgreSQL-only features, but two steps do not: the admin search's `COLLATE "C"` keys and the
/// read model's notification triggers (PL/pgSQL, `NOTIFY`), so the schema as a whole now needs
/// PostgreSQL itself (CockroachDB has no `LISTEN`).
enum PGMigrations {
    static let steps: [String] = [version1, version2, version3, usernameSkeletons, refreshTokenClient, pendingSignups, secondFactor, pendingSignupClient, passkeys, operators, refreshInSession, activity, signInWithApple, adminSearch, readModelNotifications, usedAppleTokens, adminSearchAtScale, sessionClientAddress, sessionsByUserAndTime]

    private static let version1 = """
        CREATE TABLE users (
            id TEXT NOT NULL,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL,
            email TEXT NOT NULL,
            email_key TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            mbti TEXT NOT NULL,
            email_verified BOOLEAN NOT NULL,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            CONSTRAINT users_pkey PRIMARY KEY (id),
            CONSTRAINT users_username_key_key UNIQUE (username_key),
            CONSTRAINT users_email_key_key UNIQUE (email_key)
        );
        CREATE TABLE sessions (
            id TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            user_agent TEXT,
            revoked_at BIGINT,
            CONSTRAINT sessions_pkey PRIMARY KEY (id)
        );
        CREATE INDEX sessions_user_id ON sessions (user_id);
        CREATE TABLE refresh_tokens (
            hash BYTEA NOT NULL,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            issued_at BIGINT NOT NULL,
            used_at BIGINT,
            CONSTRAINT refresh_tokens_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id);
        CREATE TABLE codes (
            email_key TEXT NOT NULL,
            purpose TEXT NOT NULL,
            code_hash BYTEA NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            CONSTRAINT codes_pkey PRIMARY KEY (email_key, purpose)
        );
        CREATE TABLE verification_tokens (
            hash BYTEA NOT NULL,
            email_key TEXT NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT verification_tokens_pkey PRIMARY KEY (hash)
        );
        CREATE TABLE signing_keys (
            kid TEXT NOT NULL,
            seed BYTEA NOT NULL,
            public_key BYTEA NOT NULL,
            created_at BIGINT NOT NULL,
            retired_at BIGINT,
            CONSTRAINT signing_keys_pkey PRIMARY KEY (kid)
        );
        CREATE TABLE settings (
            name TEXT NOT NULL,
            value BYTEA NOT NULL,
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
            CONSTRAINT outbox_pkey PRIMARY KEY (id)
        );
        CREATE INDEX outbox_next_attempt_at ON outbox (next_attempt_at);
        """

    /// Failed-login counters per account, shared by every server.
    private static let version2 = """
        CREATE TABLE login_throttles (
            key TEXT PRIMARY KEY,
            failures INTEGER NOT NULL,
            window_start BIGINT NOT NULL,
            locked_until BIGINT,
            lockouts INTEGER NOT NULL
        );
        """

    /// Fixed-window counters: code sends per address and purpose, requests per client address.
    private static let version3 = """
        CREATE TABLE rate_counters (
            key TEXT PRIMARY KEY,
            count INTEGER NOT NULL,
            window_start BIGINT NOT NULL
        );
        """

    /// Nicknames unique by UTS #39 confusable skeleton; NULL on accounts from before until the
    /// server's start-up step fills them (and recomputes their email keys). See the SQLite twin.
    private static let usernameSkeletons = """
        ALTER TABLE users ADD COLUMN username_skeleton TEXT;
        ALTER TABLE users ADD COLUMN username_display_skeleton TEXT;
        ALTER TABLE users ADD CONSTRAINT users_username_skeleton_key UNIQUE (username_skeleton);
        ALTER TABLE users ADD CONSTRAINT users_username_display_skeleton_key UNIQUE (username_display_skeleton);
        """

    /// Who used a refresh token (a keyed fingerprint of User-Agent and address), so the grace
    /// repeat goes only to that client. NULL for tokens used before.
    private static let refreshTokenClient = """
        ALTER TABLE refresh_tokens ADD COLUMN used_by BYTEA;
        """

    /// Details-first sign-ups waiting for their code: each holds its nickname (by key and by both
    /// skeletons, like an account) until it expires.
    private static let pendingSignups = """
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
            CONSTRAINT pending_signups_pkey PRIMARY KEY (email_key),
            CONSTRAINT pending_signups_username_key_key UNIQUE (username_key),
            CONSTRAINT pending_signups_username_skeleton_key UNIQUE (username_skeleton),
            CONSTRAINT pending_signups_username_display_skeleton_key UNIQUE (username_display_skeleton)
        );
        CREATE INDEX pending_signups_expires_at ON pending_signups (expires_at);
        """

    /// The second factor (issue 15); see the SQLite twin.
    private static let secondFactor = """
        ALTER TABLE users ADD COLUMN totp_enabled BOOLEAN NOT NULL DEFAULT FALSE;
        ALTER TABLE users ADD COLUMN recovery_codes_left INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN amr TEXT;
        CREATE TABLE totp_factors (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            secret BYTEA NOT NULL,
            created_at BIGINT NOT NULL,
            confirmed_at BIGINT,
            last_step BIGINT,
            CONSTRAINT totp_factors_pkey PRIMARY KEY (user_id)
        );
        CREATE TABLE recovery_codes (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            code_hash BYTEA NOT NULL,
            CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, code_hash)
        );
        CREATE TABLE mfa_challenges (
            hash BYTEA NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            CONSTRAINT mfa_challenges_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX mfa_challenges_user_id ON mfa_challenges (user_id);
        """

    /// Who made each pending sign-up and whether it is contested; see the SQLite twin.
    private static let pendingSignupClient = """
        ALTER TABLE pending_signups ADD COLUMN client BYTEA;
        ALTER TABLE pending_signups ADD COLUMN contested BOOLEAN NOT NULL DEFAULT FALSE;
        """

    /// Passkeys and their challenges (issue 16); see the SQLite twin.
    private static let passkeys = """
        CREATE TABLE passkeys (
            id TEXT NOT NULL,
            credential_id BYTEA NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            public_key BYTEA NOT NULL,
            algorithm INTEGER NOT NULL,
            sign_count BIGINT NOT NULL,
            backup_eligible BOOLEAN NOT NULL,
            backed_up BOOLEAN NOT NULL,
            aaguid BYTEA NOT NULL,
            transports TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT,
            CONSTRAINT passkeys_pkey PRIMARY KEY (id),
            CONSTRAINT passkeys_credential_id_key UNIQUE (credential_id)
        );
        CREATE INDEX passkeys_user_id ON passkeys (user_id);
        CREATE TABLE webauthn_challenges (
            hash BYTEA NOT NULL,
            purpose TEXT NOT NULL,
            user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
            expires_at BIGINT NOT NULL,
            CONSTRAINT webauthn_challenges_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX webauthn_challenges_expires_at ON webauthn_challenges (expires_at);
        """

    /// The operators' console; see the SQLite twin.
    private static let operators = """
        ALTER TABLE users ADD COLUMN is_admin BOOLEAN NOT NULL DEFAULT FALSE;
        ALTER TABLE users ADD COLUMN disabled_at BIGINT;
        CREATE INDEX users_admins ON users (username_key) WHERE is_admin = TRUE;
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
        """

    /// A session keeps its current refresh token itself (issue 13); see the SQLite twin.
    static let refreshInSession = """
        ALTER TABLE sessions ADD COLUMN refresh_generation BIGINT;
        ALTER TABLE sessions ADD COLUMN refresh_hash BYTEA;
        ALTER TABLE sessions ADD COLUMN refreshed_by BYTEA;
        """

    /// The operators' account search; see the SQLite twin. The unique keys compare byte by byte
    /// (collation "C", as SQLite compares text), so a prefix of a key is a range of its index
    /// whatever the database's default collation; equality, and so uniqueness, is unchanged.
    static let adminSearch = """
        ALTER TABLE users ALTER COLUMN username_key TYPE TEXT COLLATE "C";
        ALTER TABLE users ALTER COLUMN email_key TYPE TEXT COLLATE "C";
        CREATE INDEX users_created ON users (created_at, id);
        CREATE INDEX users_verified_created ON users (email_verified, created_at, id);
        CREATE INDEX users_mfa_created ON users (totp_enabled, created_at, id);
        CREATE INDEX users_disabled_created ON users (created_at, id) WHERE disabled_at IS NOT NULL;
        """

    /// Security events and hourly counters (issue 17); see the SQLite twin.
    static let activity = """
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
        """

    /// Sign in with Apple (issue 16); see the SQLite twin.
    static let signInWithApple = """
        ALTER TABLE users ADD COLUMN apple_linked BOOLEAN NOT NULL DEFAULT FALSE;
        CREATE TABLE apple_identities (
            subject TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            client_id TEXT NOT NULL,
            email TEXT NOT NULL,
            refresh_token BYTEA,
            created_at BIGINT NOT NULL,
            CONSTRAINT apple_identities_pkey PRIMARY KEY (subject),
            CONSTRAINT apple_identities_user_id_key UNIQUE (user_id)
        );
        CREATE TABLE apple_continuations (
            hash BYTEA NOT NULL,
            subject TEXT NOT NULL,
            client_id TEXT NOT NULL,
            email TEXT NOT NULL,
            refresh_token BYTEA,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT apple_continuations_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX apple_continuations_expires_at ON apple_continuations (expires_at);
        ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'mail';
        ALTER TABLE mfa_challenges ADD COLUMN first_factor TEXT;
        """

    /// Every change of what a server's read model holds is announced to the others, in the writing
    /// transaction (delivered only if and when it commits), whoever writes: a server, an
    /// `account-server` command, an operator's SQL. `s<session id>` for a session row deleted (a
    /// cascade from its account too) or updated in what a model holds, except a last use moved
    /// forward (a refresh, which would otherwise notify on every rotation: PostgreSQL serializes
    /// notifying commits, their disk flush included; see `PostgresAccountStore` for how a held
    /// session's older last use is handled), `u<account id>` for an account row updated or
    /// deleted, `*` when either table is truncated. `ENABLE ALWAYS`: they fire in replica mode
    /// too (`session_replication_role`). See `PGChangeListener`. PostgreSQL-only (PL/pgSQL, NOTIFY).
    static let readModelNotifications = """
        CREATE FUNCTION account_read_model_session() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('account_read_model', 's' || OLD.id);
            RETURN NULL;
        END $$;
        CREATE FUNCTION account_read_model_user() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('account_read_model', 'u' || OLD.id);
            RETURN NULL;
        END $$;
        CREATE FUNCTION account_read_model_all() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('account_read_model', '*');
            RETURN NULL;
        END $$;
        CREATE TRIGGER sessions_read_model AFTER UPDATE ON sessions FOR EACH ROW
            WHEN (NEW.last_used_at < OLD.last_used_at
                OR (NEW.id, NEW.user_id, NEW.created_at, NEW.expires_at, NEW.user_agent, NEW.revoked_at, NEW.amr)
                    IS DISTINCT FROM (OLD.id, OLD.user_id, OLD.created_at, OLD.expires_at, OLD.user_agent, OLD.revoked_at, OLD.amr))
            EXECUTE FUNCTION account_read_model_session();
        CREATE TRIGGER sessions_read_model_delete AFTER DELETE ON sessions
            FOR EACH ROW EXECUTE FUNCTION account_read_model_session();
        CREATE TRIGGER users_read_model AFTER UPDATE OR DELETE ON users
            FOR EACH ROW EXECUTE FUNCTION account_read_model_user();
        CREATE TRIGGER sessions_read_model_truncate AFTER TRUNCATE ON sessions
            FOR EACH STATEMENT EXECUTE FUNCTION account_read_model_all();
        CREATE TRIGGER users_read_model_truncate AFTER TRUNCATE ON users
            FOR EACH STATEMENT EXECUTE FUNCTION account_read_model_all();
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model;
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model_delete;
        ALTER TABLE users ENABLE ALWAYS TRIGGER users_read_model;
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model_truncate;
        ALTER TABLE users ENABLE ALWAYS TRIGGER users_read_model_truncate;
        """

    /// Identity tokens accepted already (issue 16); see the SQLite twin.
    static let usedAppleTokens = """
        CREATE TABLE apple_used_tokens (
            hash BYTEA NOT NULL,
            expires_at BIGINT NOT NULL,
            CONSTRAINT apple_used_tokens_pkey PRIMARY KEY (hash)
        );
        CREATE INDEX apple_used_tokens_expires_at ON apple_used_tokens (expires_at);
        """

    /// The operators' account search at a million accounts; see the SQLite twin.
    static let adminSearchAtScale = """
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
        DROP INDEX users_created;
        DROP INDEX users_verified_created;
        DROP INDEX users_mfa_created;
        DROP INDEX users_disabled_created;
        """

    /// Each session keeps the address of the client that last used it; see the SQLite twin. The
    /// read model holds it, so the session trigger now also announces a change of it (a refresh
    /// from the same address as before still announces nothing; one from a new address does, once).
    /// No index names the column, so a refresh stays a HOT update.
    static let sessionClientAddress = """
        ALTER TABLE sessions ADD COLUMN client_address TEXT;
        DROP TRIGGER sessions_read_model ON sessions;
        CREATE TRIGGER sessions_read_model AFTER UPDATE ON sessions FOR EACH ROW
            WHEN (NEW.last_used_at < OLD.last_used_at
                OR (NEW.id, NEW.user_id, NEW.created_at, NEW.expires_at, NEW.user_agent, NEW.revoked_at, NEW.amr, NEW.client_address)
                    IS DISTINCT FROM
                    (OLD.id, OLD.user_id, OLD.created_at, OLD.expires_at, OLD.user_agent, OLD.revoked_at, OLD.amr, OLD.client_address))
            EXECUTE FUNCTION account_read_model_session();
        ALTER TABLE sessions ENABLE ALWAYS TRIGGER sessions_read_model;
        """

    /// An account's sessions by user and opening time, in place of by user alone: the operators'
    /// pages show each account's last login (`MAX(created_at)` of its sessions), which was a read
    /// of every session the account ever had (181 each in the bench's 1,000-account database, a
    /// search p99 of 39 ms) and is now one index entry. Every lookup of an account's sessions
    /// reads the same leading column.
    static let sessionsByUserAndTime = """
        CREATE INDEX sessions_user_created ON sessions (user_id, created_at);
        DROP INDEX sessions_user_id;
        """
}
