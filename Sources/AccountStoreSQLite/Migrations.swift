/// The schema, one SQL script per version, oldest first: version N is `steps[N - 1]`.
///
/// Never edit a step that has shipped; append a new one. The SQL stays portable so the PostgreSQL
/// backend can mirror it (there `BLOB` is `BYTEA`). Times are BIGINT milliseconds since 1970,
/// UUIDs lower-case text, booleans 0 or 1.
enum Migrations {
    static let steps: [String] = [version1, version2, version3, usernameSkeletons, refreshTokenClient, pendingSignups, secondFactor, pendingSignupClient, passkeys, operators, refreshInSession, activity, signInWithApple, adminSearch, readModelNotifications, usedAppleTokens, adminSearchAtScale, sessionClientAddress, sessionsByUserAndTime]

    private static let version1 = """
        CREATE TABLE users (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,
            email TEXT NOT NULL,
            email_key TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            mbti TEXT NOT NULL,
            email_verified INTEGER NOT NULL,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        );
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            user_agent TEXT,
            revoked_at BIGINT
        );
        CREATE INDEX sessions_user_id ON sessions (user_id);
        CREATE TABLE refresh_tokens (
            hash BLOB PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            issued_at BIGINT NOT NULL,
            used_at BIGINT
        );
        CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id);
        CREATE TABLE codes (
            email_key TEXT NOT NULL,
            purpose TEXT NOT NULL,
            code_hash BLOB NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            PRIMARY KEY (email_key, purpose)
        );
        CREATE TABLE verification_tokens (
            hash BLOB PRIMARY KEY,
            email_key TEXT NOT NULL,
            expires_at BIGINT NOT NULL
        );
        CREATE TABLE signing_keys (
            kid TEXT PRIMARY KEY,
            seed BLOB NOT NULL,
            public_key BLOB NOT NULL,
            created_at BIGINT NOT NULL,
            retired_at BIGINT
        );
        CREATE TABLE settings (
            name TEXT PRIMARY KEY,
            value BLOB NOT NULL
        );
        CREATE TABLE outbox (
            id TEXT PRIMARY KEY,
            recipient TEXT NOT NULL,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at BIGINT NOT NULL
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

    /// Nicknames unique by UTS #39 confusable skeleton, of the case-folded key and of the name as
    /// shown. SQL cannot compute skeletons: accounts from before keep NULLs (NULLs do not collide)
    /// until the server's start-up step fills them and, with them, recomputes their email keys
    /// (``EmailRule`` now folds NFKC and Unicode case).
    private static let usernameSkeletons = """
        ALTER TABLE users ADD COLUMN username_skeleton TEXT;
        ALTER TABLE users ADD COLUMN username_display_skeleton TEXT;
        CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton);
        CREATE UNIQUE INDEX users_username_display_skeleton ON users (username_display_skeleton);
        """

    /// Who used a refresh token (a keyed fingerprint of User-Agent and address), so the grace
    /// repeat goes only to that client. NULL for tokens used before.
    private static let refreshTokenClient = """
        ALTER TABLE refresh_tokens ADD COLUMN used_by BLOB;
        """

    /// Details-first sign-ups waiting for their code: each holds its nickname (by key and by both
    /// skeletons, like an account) until it expires.
    private static let pendingSignups = """
        CREATE TABLE pending_signups (
            email_key TEXT PRIMARY KEY,
            email TEXT NOT NULL,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            mbti TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            username_skeleton TEXT NOT NULL UNIQUE,
            username_display_skeleton TEXT NOT NULL UNIQUE
        );
        CREATE INDEX pending_signups_expires_at ON pending_signups (expires_at);
        """

    /// The second factor (issue 15): an authenticator app per account (its secret sealed by the
    /// server, the last step accepted so no code is used twice), recovery codes as keyed hashes,
    /// the second-factor step of logins (`mfa_token`, by hash), how each session was
    /// authenticated (`amr`, NULL for sessions from before: a password), and the account's
    /// summary that `GET /auth/me` shows without another read.
    private static let secondFactor = """
        ALTER TABLE users ADD COLUMN totp_enabled INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN recovery_codes_left INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN amr TEXT;
        CREATE TABLE totp_factors (
            user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            secret BLOB NOT NULL,
            created_at BIGINT NOT NULL,
            confirmed_at BIGINT,
            last_step BIGINT
        );
        CREATE TABLE recovery_codes (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            code_hash BLOB NOT NULL,
            PRIMARY KEY (user_id, code_hash)
        );
        CREATE TABLE mfa_challenges (
            hash BLOB PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL
        );
        CREATE INDEX mfa_challenges_user_id ON mfa_challenges (user_id);
        """

    /// Which client made each pending sign-up (a keyed fingerprint of User-Agent and address;
    /// NULL for sign-ups from before) and whether it replaced another client's, so a code without
    /// the sign-up's `signup_token` completes only an uncontested one.
    private static let pendingSignupClient = """
        ALTER TABLE pending_signups ADD COLUMN client BLOB;
        ALTER TABLE pending_signups ADD COLUMN contested INTEGER NOT NULL DEFAULT 0;
        """

    /// Passkeys (issue 16): WebAuthn credentials by their id (unique across accounts) with their
    /// COSE key, counter and backup flags, and the challenges issued for registering and logging
    /// in (by SHA-256, taken once, expired ones swept by their index).
    private static let passkeys = """
        CREATE TABLE passkeys (
            id TEXT PRIMARY KEY,
            credential_id BLOB NOT NULL UNIQUE,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            public_key BLOB NOT NULL,
            algorithm INTEGER NOT NULL,
            sign_count BIGINT NOT NULL,
            backup_eligible INTEGER NOT NULL,
            backed_up INTEGER NOT NULL,
            aaguid BLOB NOT NULL,
            transports TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT
        );
        CREATE INDEX passkeys_user_id ON passkeys (user_id);
        CREATE TABLE webauthn_challenges (
            hash BLOB PRIMARY KEY,
            purpose TEXT NOT NULL,
            user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
            expires_at BIGINT NOT NULL
        );
        CREATE INDEX webauthn_challenges_expires_at ON webauthn_challenges (expires_at);
        """

    /// The operators' console (issue 17): the admin role (granted only from the command line),
    /// disabled accounts (read with every session, so their tokens stop at once), and the audit
    /// log of operator actions, newest first by `(at, id)`.
    private static let operators = """
        ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN disabled_at BIGINT;
        CREATE INDEX users_admins ON users (username_key) WHERE is_admin = TRUE;
        CREATE TABLE audit_events (
            id TEXT PRIMARY KEY,
            at BIGINT NOT NULL,
            actor TEXT NOT NULL,
            target_id TEXT,
            action TEXT NOT NULL,
            reason TEXT,
            request_id TEXT
        );
        CREATE INDEX audit_events_at ON audit_events (at, id);
        """

    /// A session keeps its current refresh token itself (issue 13), so a refresh writes one row:
    /// the generation of the current token, its keyed hash, and the fingerprint of the client that
    /// traded the generation before. NULL for sessions from before, whose current token is still
    /// in `refresh_tokens`: that table is only read from now on (a token from before keeps working
    /// until it rotates, and its reuse is still seen), and emptied as its sessions end.
    static let refreshInSession = """
        ALTER TABLE sessions ADD COLUMN refresh_generation BIGINT;
        ALTER TABLE sessions ADD COLUMN refresh_hash BLOB;
        ALTER TABLE sessions ADD COLUMN refreshed_by BLOB;
        """

    /// The operators' account search (issue 17): an index for the order (newest first) and the
    /// time range, and one for each filter with it, so a page of any search reads about as many
    /// index entries as it shows, at a million accounts as at ten. Nickname and address prefixes
    /// use the unique keys' indexes.
    static let adminSearch = """
        CREATE INDEX users_created ON users (created_at, id);
        CREATE INDEX users_verified_created ON users (email_verified, created_at, id);
        CREATE INDEX users_mfa_created ON users (totp_enabled, created_at, id);
        CREATE INDEX users_disabled_created ON users (created_at, id) WHERE disabled_at IS NOT NULL;
        """

    /// The account's own security history and the operators' hourly figures (issue 17). Events
    /// are read newest first per account (`security_events_user_at`) and pruned by age
    /// (`security_events_at`); they go with their account. Counters are one row per hour and
    /// name, only ever added to, so several servers' counts add up.
    static let activity = """
        CREATE TABLE security_events (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            at BIGINT NOT NULL,
            type TEXT NOT NULL,
            client_address TEXT,
            device_name TEXT,
            detail TEXT
        );
        CREATE INDEX security_events_user_at ON security_events (user_id, at, id);
        CREATE INDEX security_events_at ON security_events (at);
        CREATE TABLE hourly_counters (
            hour BIGINT NOT NULL,
            name TEXT NOT NULL,
            value BIGINT NOT NULL,
            PRIMARY KEY (hour, name)
        );
        """

    /// Sign in with Apple (issue 16): Apple IDs linked to accounts (Apple's `sub` unique, one per
    /// account, Apple's refresh token sealed), the continuations of new Apple users waiting for a
    /// nickname (by SHA-256, single use, 10 minutes), whether an account is linked (read with
    /// every session, like the second factor's summary), outbox rows that are not mail (an
    /// Apple grant to revoke, retried with the mail's back-off), and the first step of a login
    /// waiting for its second factor (NULL: the password), so its session's `amr` names it.
    static let signInWithApple = """
        ALTER TABLE users ADD COLUMN apple_linked INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE apple_identities (
            subject TEXT PRIMARY KEY,
            user_id TEXT NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
            client_id TEXT NOT NULL,
            email TEXT NOT NULL,
            refresh_token BLOB,
            created_at BIGINT NOT NULL
        );
        CREATE TABLE apple_continuations (
            hash BLOB PRIMARY KEY,
            subject TEXT NOT NULL,
            client_id TEXT NOT NULL,
            email TEXT NOT NULL,
            refresh_token BLOB,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL
        );
        CREATE INDEX apple_continuations_expires_at ON apple_continuations (expires_at);
        ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'mail';
        ALTER TABLE mfa_challenges ADD COLUMN first_factor TEXT;
        """

    /// PostgreSQL's twin adds triggers that tell other servers what changed (their read models);
    /// one SQLite file has one writer process, which sees its own writes and others' by
    /// `data_version`, so nothing changes here. The step keeps both lists the same length.
    static let readModelNotifications = """
        SELECT 1;
        """

    /// Sign in with Apple's identity tokens accepted already (issue 16), by the SHA-256 of what
    /// Apple signed, each until it expires, so a token with its raw nonce is accepted once; the
    /// hourly sweep removes expired rows by `expires_at`.
    static let usedAppleTokens = """
        CREATE TABLE apple_used_tokens (
            hash BLOB PRIMARY KEY,
            expires_at BIGINT NOT NULL
        );
        CREATE INDEX apple_used_tokens_expires_at ON apple_used_tokens (expires_at);
        """

    /// The operators' account search at a million accounts (issue 17): every filter is a leading
    /// column of each index (the disabled state by which of a pair of partial indexes holds the
    /// account), so a search reads only accounts that pass its filters, in its order: newest first
    /// (`created_at, id`), or by the nickname's or the address's key for a prefix (the key range),
    /// the creation time beside the key so a time window is checked in the index. The time indexes
    /// hold both keys too, so a prefix inside a short window is found in the index alone
    /// (`disabled_at` comes last in each: SQLite reads a partial index alone only when it holds the
    /// column of its own condition). The
    /// step's indexes replace those of `adminSearch`, whose filters were not leading columns of the
    /// indexes a prefix search walked (`AdminUserSearch` says how each search uses them).
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

    /// Each session keeps the address of the client that last used it (issue 17: the account's
    /// sessions list and the operators' account page show it), written by the login that opens it
    /// and by each refresh in the refresh's one statement, forgotten when it ends (revocation, or
    /// the hourly sweep once it expired). Sessions of before keep NULL. No index names it: every
    /// refresh writes it (the sweep's read may scan).
    static let sessionClientAddress = """
        ALTER TABLE sessions ADD COLUMN client_address TEXT;
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
