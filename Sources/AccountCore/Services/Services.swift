import AccountAPI
import AccountStore
import Foundation
import Mailer
import WebAuthn

/// Everything the routes and the request path work with, made once at start and shared by every
/// route group and operation (a reference: handing it on costs one retain, not one per part).
///
/// Each part is a value, or a `Sendable` reference that owns threads or counters (the store, the
/// hashing pool, the key ring, the mail dispatcher, the metrics). Nothing here knows about routes.
///
/// ```swift
/// let services = try await Services.start(configuration: configuration, store: store, transport: transport)
/// let pipeline = Routes.pipeline(services)
/// ```
package final class Services: Sendable {
    package let configuration: ServerConfiguration
    package let store: any AccountStore
    package let clock: ServerClock
    /// Where secrets, codes, tokens and row ids are drawn from.
    package let random: Randomness
    package let secrets: Secrets
    /// Argon2id on its own threads.
    package let passwords: PasswordService
    package let keys: KeyRing
    package let tokens: TokenService
    /// Opens sessions and writes token pairs; its policy says how long a session lives.
    package let sessions: SessionIssuer
    /// The per-account back-off of every password check.
    package let throttle: LoginThrottle
    /// One-time codes: issued, mailed and checked.
    package let codes: CodeIssuer
    /// The one way into the outbox, under each recipient's mail budget.
    package let outbox: Outbox
    /// Authenticator apps and recovery codes: sealed secrets, codes accepted once.
    package let secondFactor: SecondFactor
    /// Passkeys: the relying party, challenges made and taken once.
    package let passkeys: PasskeyCeremonies
    /// Sign in with Apple: identity tokens checked, Apple's grants kept and revoked.
    package let apple: AppleSignIn
    package let mail: MailDispatcher
    /// The hourly sweeps that keep tables bounded.
    package let sweeps: HourlySweep
    /// Details-first sign-ups waiting for their code.
    package let signUps: PendingSignUps
    /// UTS #39 nickname checks and skeletons.
    package let nicknames: NicknameGuard
    /// Counters and histograms for `GET /metrics`.
    package let metrics: Metrics
    /// The hourly counters of the operators' figures, flushed to the database every few seconds.
    package let activity: ActivityCounters
    /// What happened to accounts, recorded into the history, the log, the counters and the metrics.
    package let events: DomainEvents

    private init(
        configuration: ServerConfiguration, store: any AccountStore, transport: any MailTransport, clock: ServerClock, random: Randomness,
        secrets: Secrets
    ) throws {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.random = random
        self.secrets = secrets
        passwords = try PasswordService(
            parameters: .init(opsLimit: UInt64(configuration.hashPasses), memoryLimit: configuration.hashMemory),
            threads: configuration.hashThreads, random: random)
        keys = KeyRing(store: store, accessTTL: TimeInterval(configuration.accessTTL), seal: secrets.seal)
        tokens = TokenService(keys: keys, issuer: configuration.issuer, audience: configuration.effectiveAudience, accessTTL: configuration.accessTTL)
        let sessionPolicy = SessionPolicy(
            idleLifetime: TimeInterval(configuration.sessionIdleTTL), maxLifetime: TimeInterval(configuration.sessionMaxTTL))
        sessions = SessionIssuer(policy: sessionPolicy, tokens: tokens, refreshKeys: secrets.refreshKeys, random: random)
        metrics = Metrics()
        activity = ActivityCounters(store: store)
        events = DomainEvents(store: store, random: random, counters: activity, metrics: metrics)
        throttle = LoginThrottle(
            store: store, passwords: passwords, events: events,
            limits: LoginLimits(
                attempts: configuration.loginAttempts, window: TimeInterval(configuration.loginWindow),
                backoff: TimeInterval(configuration.loginBackoff)))
        let budget = MailBudget(interval: configuration.mailInterval, perHour: configuration.mailsPerHour)
        let codeRules = CodeRules(lifetime: TimeInterval(configuration.codeTTL), maxAttempts: configuration.codeMaxAttempts)
        outbox = Outbox(budget: budget, seal: secrets.seal, random: random)
        secondFactor = try SecondFactor(secrets: secrets, issuer: configuration.totpIssuer, outbox: outbox, random: random)
        passkeys = PasskeyCeremonies(
            party: RelyingParty(id: configuration.effectiveWebAuthnRPID, origins: configuration.effectiveWebAuthnOrigins),
            name: configuration.webAuthnRPName, random: random)
        codes = CodeIssuer(hasher: CodeHasher(key: secrets.codeKey, digits: CodeRule.length, random: random), outbox: outbox, budget: budget, rules: codeRules)
        apple = try AppleSignIn(settings: configuration.apple, secrets: secrets, clock: clock, random: random, store: store, events: events)
        mail = MailDispatcher(store: store, transport: transport, clock: clock, seal: secrets.seal, deliveries: [.appleRevocation: apple.grants])
        sweeps = HourlySweep(store: store, clock: clock, policy: sessionPolicy)
        nicknames = try NicknameGuard()
        signUps = PendingSignUps(
            nicknames: nicknames, throttle: throttle, codeLifetime: codeRules.lifetime,
            verifySignInWindow: TimeInterval(configuration.verifySignInWindow), signUpKey: secrets.signUpKey, random: random)
    }

    /// Migrates the store, loads or creates secrets and keys (sealed with the secret key file when
    /// one is configured), and starts mail delivery and the hourly sweeps.
    /// - Throws: ``SecretsError`` when the key file is missing or malformed, or the database was
    ///   sealed with another key (or with one, and none is given).
    package static func start(
        configuration: ServerConfiguration, store: any AccountStore, transport: any MailTransport, clock: ServerClock,
        random: Randomness = .system
    ) async throws -> Services {
        try await store.migrate()
        let secrets = try await Secrets.load(from: store, seal: SecretSeal.configured(keyFile: configuration.secretKeyFile), random: random)
        let services = try Services(
            configuration: configuration, store: store, transport: transport, clock: clock, random: random, secrets: secrets)
        try await services.keys.ensureKey(now: clock.now())
        try await services.keys.reload(now: clock.now())
        await services.mail.start()
        services.sweeps.start()
        services.activity.start()
        return services
    }

    /// The services without a server, for `account-server admin users`: migrates the store and
    /// loads its secrets, and starts nothing in the background (mail queued through them is
    /// delivered by a running server). Stop `passwords.pool` when done.
    package static func forCommand(configuration: ServerConfiguration, store: any AccountStore) async throws -> Services {
        try await store.migrate()
        let secrets = try await Secrets.load(from: store, seal: SecretSeal.configured(keyFile: configuration.secretKeyFile), random: .system)
        let transport = try MailConfiguration.transport(for: configuration.mail, sender: configuration.mailFrom)
        let clock = configuration.clockFile.map(ServerClock.offset(byFileAt:)) ?? .system
        return try Services(configuration: configuration, store: store, transport: transport, clock: clock, random: .system, secrets: secrets)
    }

    /// Stops background work (mail delivery, hashing threads).
    package func stop() async {
        sweeps.stop()
        await activity.stop()
        await mail.stop()
        passwords.pool.stop()
        apple.stop()
    }
}
