import Foundation

/// Everything `account-server` can be told, with the defaults docs/API.md and docs/OPERATIONS.md state.
public struct ServerConfiguration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8000
    /// `sqlite:PATH`, or `postgres://user:pass@host:port/db` (also `postgresql://`).
    public var databaseURL = "sqlite:account.sqlite"
    /// `console`, `file:///dir`, `smtp://[user:pass@]host:port` (STARTTLS when offered) or `smtps://…`.
    public var mail = "console"
    /// The `From` of every message.
    public var mailFrom = "MBTI Playground <no-reply@localhost>"
    public var issuer = "http://localhost:8000"
    /// `aud` of access tokens; the issuer when not given.
    public var audience: String?
    /// Access token lifetime in seconds.
    public var accessTTL = 900
    /// Seconds a session lives without a refresh.
    public var sessionIdleTTL = 30 * 24 * 3600
    /// Seconds a session lives at most.
    public var sessionMaxTTL = 90 * 24 * 3600
    public var allowUnverifiedLogin = false
    /// Auth requests per minute per client address; 0 turns the limit off.
    public var ipRateLimit = 100
    /// Failed logins per account within `loginWindow` before tries are refused; 0 turns it off.
    public var loginAttempts = 5
    /// Seconds in which failures count, and of calm after which a back-off streak is forgotten.
    public var loginWindow = 900
    /// The first back-off in seconds; each further one doubles, up to `loginWindow`.
    public var loginBackoff = 30
    /// Where per-address counts live: in this process, or in the database (shared by every
    /// server on it). `nil` picks the database for PostgreSQL and this process for SQLite.
    public var addressLimitShared: Bool?
    /// Database connections (PostgreSQL).
    public var databasePool = 8
    /// Peer addresses whose `X-Forwarded-For` is believed; also exempt from the per-address
    /// connection cap (a balancer carries many clients).
    public var trustedProxies: [String] = []
    /// Connections one client address (socket peer; IPv6 by /64) may hold open; 0 turns the cap off.
    public var maxConnectionsPerAddress = 64
    /// Seconds a request head may take from its first byte to its end (not extended by trickled bytes).
    public var headerTimeout = 10
    /// HTTP event-loop threads.
    public var httpThreads = ProcessInfo.processInfo.activeProcessorCount
    /// Argon2id threads; each hash holds `hashMemory` bytes while it runs.
    public var hashThreads = ProcessInfo.processInfo.activeProcessorCount
    /// Argon2id memory in bytes (19 MiB).
    public var hashMemory = 19 * 1024 * 1024
    /// Argon2id passes.
    public var hashPasses = 2
    /// Logs one JSON line per request to standard error.
    public var accessLog = true
    /// Keeps live sessions with their accounts in memory for authentication (see
    /// `SessionReadModel`; on PostgreSQL kept fresh by change notifications).
    public var readModel = true
    /// Sessions the read model holds at most.
    public var readModelEntries = 10_000
    /// The read model's capacity in force: 0 when it is off.
    public var readModelCapacity: Int { readModel ? readModelEntries : 0 }
    /// On PostgreSQL, whether the read model answers only after a round trip through the change
    /// notifications that began after the lookup (`exact`), or at once while they are caught up
    /// (`notified`: another server's commit is seen once its notification arrived).
    public var readModelFreshness = "exact"

    /// Seconds a one-time code is valid.
    public var codeTTL = 600
    /// Wrong tries before a code is spent.
    public var codeMaxAttempts = 5
    /// Seconds between two messages to one address (every kind of mail shares this budget); also
    /// the resend cooldown of codes per address and purpose. 0 turns it off.
    public var mailInterval = 60
    /// Messages to one address per hour (every kind of mail shares this budget); also the codes
    /// one address may be sent per purpose and hour. 0 turns it off.
    public var mailsPerHour = 5
    /// Seconds a details-first sign-up holds its nickname while it waits for its code.
    public var signUpHold = 24 * 3600
    /// Seconds an `email_verification_token` is valid.
    public var verificationTokenTTL = 1800
    /// Seconds after a details-first sign-up in which verifying its code may also sign the new
    /// account in (`sign_in: true`); 0 turns that off.
    public var verifySignInWindow = 1800
    /// Seconds a used refresh token may be presented again and get the same new pair.
    public var refreshGrace = 10

    /// The issuer authenticator apps show beside the nickname (`otpauth://totp/<issuer>:<nickname>`).
    public var totpIssuer = "MBTI Playground"

    /// The WebAuthn RP id passkeys are made for (a domain: `example.com`); `nil`: the issuer's host.
    public var webAuthnRPID: String?
    /// Origins passkey ceremonies may run on (`https://example.com`, `android:apk-key-hash:…`);
    /// empty: the issuer's origin alone.
    public var webAuthnOrigins: [String] = []
    /// The name authenticators show for the RP beside the account.
    public var webAuthnRPName = "MBTI Playground"
    /// iOS apps (`TEAMID.bundle.id`) that may use passkeys of this domain, served in
    /// `/.well-known/apple-app-site-association` as `webcredentials`.
    public var appleAppIDs: [String] = []

    /// Sign in with Apple: the client ids (bundle ids, or a Services ID for the web) identity
    /// tokens may be issued to (`aud`); empty: no Sign in with Apple.
    public var appleClientIDs: [String] = []
    /// Where Apple's public keys are (a JWKS).
    public var appleJWKSURL = "https://appleid.apple.com/auth/keys"
    /// Apple's token endpoint (authorization codes for refresh tokens).
    public var appleTokenURL = "https://appleid.apple.com/auth/token"
    /// Apple's revoke endpoint (a deleted account's grant).
    public var appleRevokeURL = "https://appleid.apple.com/auth/revoke"
    /// Apple's `.p8` key (PKCS #8, P-256) that signs the client secret; with `appleKeyID` and
    /// `appleTeamID`, or none of the three (then no code is exchanged and no grant revoked).
    public var appleKeyFile: String?
    public var appleKeyID: String?
    public var appleTeamID: String?

    /// For tests: a file holding seconds by which the server's clock runs ahead.
    public var clockFile: String?
    /// A file holding the key that seals the database's secrets (signing seeds, HMAC keys).
    public var secretKeyFile: String?

    public init() {}

    /// Whether per-address counts are kept in the database.
    public var sharesAddressLimit: Bool { addressLimitShared ?? databaseURL.hasPrefix("postgres") }

    /// The audience in force.
    public var effectiveAudience: String { audience ?? issuer }

    /// The RP id in force: the flag's, or the issuer's host.
    public var effectiveWebAuthnRPID: String { webAuthnRPID ?? URLComponents(string: issuer)?.host ?? "localhost" }

    /// The origins in force: the flag's, or the issuer's scheme, host and port.
    public var effectiveWebAuthnOrigins: [String] {
        guard webAuthnOrigins.isEmpty else { return webAuthnOrigins }
        guard let url = URLComponents(string: issuer), let scheme = url.scheme, let host = url.host else { return [] }
        return [scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")]
    }
}
