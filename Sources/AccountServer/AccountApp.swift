import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer
import Sodium

/// The account API: routes, middleware and the services behind them, over a store and a mailer.
///
/// Built once per process by ``make(configuration:store:transport:clock:)``; the HTTP server
/// calls ``handle(_:)`` for every request. Tests call it directly, without a socket.
public final class AccountApp: Sendable {
    let configuration: ServerConfiguration
    let store: any AccountStore
    /// The store when `GET /auth/me` may read it on the HTTP thread (local reads, per-address
    /// counts in this process); decided once, not per request.
    let inlineReads: (any InlineReadableStore)?
    let clock: ServerClock
    let passwords: PasswordService
    let tokens: TokenService
    let keys: KeyRing
    let codes: CodeHasher
    let secrets: Secrets
    let mail: MailDispatcher
    let addressLimiter: AddressRateLimiter
    let policy: Policy
    /// UTS #39 nickname checks and skeletons.
    let nicknames: NicknameGuard
    private(set) nonisolated(unsafe) var router = Router()
    /// Counters and histograms for `GET /metrics`, labelled by the router's route patterns.
    private(set) nonisolated(unsafe) var metrics = Metrics()

    private init(configuration: ServerConfiguration, store: any AccountStore, transport: any MailTransport, clock: ServerClock, secrets: Secrets) throws {
        self.configuration = configuration
        self.store = store
        inlineReads = configuration.sharesAddressLimit ? nil : store as? any InlineReadableStore
        self.clock = clock
        self.secrets = secrets
        passwords = try PasswordService(
            parameters: .init(opsLimit: UInt64(configuration.hashPasses), memoryLimit: configuration.hashMemory),
            threads: configuration.hashThreads)
        keys = KeyRing(store: store, accessTTL: TimeInterval(configuration.accessTTL), seal: secrets.seal)
        tokens = TokenService(keys: keys, issuer: configuration.issuer, audience: configuration.effectiveAudience, accessTTL: configuration.accessTTL)
        codes = CodeHasher(key: secrets.codeKey, digits: CodeRule.length)
        mail = MailDispatcher(store: store, transport: transport, clock: clock)
        addressLimiter = AddressRateLimiter(limit: configuration.ipRateLimit)
        policy = Self.policy(for: configuration)
        nicknames = try NicknameGuard()
        router = makeRouter()
        metrics.track(patterns: router.routePatterns)
    }

    /// Migrates the store, fills the keys of accounts from before, loads or creates secrets and
    /// keys (sealed with the secret key file when one is configured), and starts mail delivery.
    /// - Throws: ``SecretsError`` when the key file is missing or malformed, or the database was
    ///   sealed with another key (or with one, and none is given).
    public static func make(
        configuration: ServerConfiguration, store: any AccountStore, transport: any MailTransport,
        clock: ServerClock = .system
    ) async throws -> AccountApp {
        try await store.migrate()
        let secrets = try await Secrets.load(from: store, seal: SecretSeal.configured(keyFile: configuration.secretKeyFile))
        let app = try AccountApp(configuration: configuration, store: store, transport: transport, clock: clock, secrets: secrets)
        // Before serving, so no sign-up meets an account whose skeleton is not known yet.
        _ = try await app.nicknames.fillUserKeys(in: store)
        try await app.keys.ensureKey(now: clock.now())
        try await app.keys.reload(now: clock.now())
        await app.mail.start()
        return app
    }

    /// Stops background work (mail delivery, hashing threads).
    public func shutdown() async {
        await mail.stop()
        passwords.pool.stop()
    }

    /// Every route the router knows, as `(method, path)`.
    public var routes: [(method: String, path: String)] { router.routes }

    /// Delivers due mail now (tests use it to avoid waiting for the timer).
    public func deliverMail() async { await mail.deliverDue() }

    private static func policy(for configuration: ServerConfiguration) -> Policy {
        Policy(
            username: .init(minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength, allowedSymbols: UsernameRule.allowedSymbols),
            email: .init(maxLength: EmailRule.maxLength),
            password: .init(minLength: PasswordRule.minLength, maxLength: PasswordRule.maxLength, refusesCommon: true, refusesSimilar: true),
            mbtiTypes: MBTI.allCases,
            code: .init(length: CodeRule.length, lifetime: configuration.codeTTL, resendCooldown: configuration.mailInterval, maxAttempts: configuration.codeMaxAttempts),
            emailVerificationRequired: !configuration.allowUnverifiedLogin,
            accessTokenLifetime: configuration.accessTTL,
            sessionIdleLifetime: configuration.sessionIdleTTL,
            sessionMaxLifetime: configuration.sessionMaxTTL)
    }
}
