import Foundation

/// The storage the server needs, independent of the database behind it.
///
/// Work happens in transactions: `write` runs `body` in one transaction that commits when `body`
/// returns and rolls back when it throws, so a sign-up, its code and its mail commit together or
/// not at all. `body` runs on a thread of the store's own; it must not block on anything but the
/// transaction it is given. Backends may run `body` again when the database reports a
/// serialization conflict, so it must have no effects outside the transaction.
///
/// ```swift
/// let user = try await store.read { try $0.user(emailKey: "mina@example.com") }
/// ```
public protocol AccountStore: Sendable {
    /// Runs `body` in a read-only transaction.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T
    /// Runs `body` in a read-write transaction that commits when it returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T
    /// Answers quickly whether the database is reachable (for `/readyz`); throws if not.
    func ping() async throws
    /// Applies pending migrations; returns the schema version now in force.
    @discardableResult func migrate() async throws -> Int
    /// Rows in every table, by table name: for operators, and for tests that prove a refused
    /// request wrote nothing.
    func rowCounts() async throws -> [String: Int]
    /// Closes connections; later calls throw.
    func close() async
    /// Calls `hook` after every committed ``write(_:)`` that queued outbox rows
    /// (``StoreTransaction/enqueueMail(_:)``), never for one that rolled back: how the mail
    /// dispatcher learns there is something to send. A later call replaces the hook.
    func whenMailQueued(_ hook: @escaping @Sendable () -> Void)
    /// The session `id` with its account, as ``StoreTransaction/sessionWithUser(id:)`` reads them:
    /// what every authenticated request asks. A store with a ``SessionReadModel`` answers from
    /// memory when that is exact; the others read.
    func sessionWithUser(id: UUID) async throws -> SessionWithUser?
    /// The counters of the store's read model; `nil` when it keeps none.
    var readModelCounts: SessionReadModel.Counts? { get }
}

extension AccountStore {
    public func sessionWithUser(id: UUID) async throws -> SessionWithUser? {
        try await read { try $0.sessionWithUser(id: id) }
    }

    public var readModelCounts: SessionReadModel.Counts? { nil }
}

/// The operations available inside one transaction. Every method throws ``StoreError``.
public protocol StoreTransaction {
    // MARK: Users

    /// Adds an account; throws `.conflict(field: "username" | "email")` if a key is taken.
    func insertUser(_ user: UserRecord) throws
    func user(id: UUID) throws -> UserRecord?
    /// The account `id`, read in order to change it or to open a session for it: locked for the
    /// rest of the transaction where the backend has row locks, so two changes of one account run
    /// one after the other (a profile edit never writes back a password hash a concurrent change
    /// replaced) and a session is never opened for an account deleted in the meantime.
    func lockUser(id: UUID) throws -> UserRecord?
    func user(usernameKey: String) throws -> UserRecord?
    func user(emailKey: String) throws -> UserRecord?
    /// Overwrites the account with `user.id`; throws `.conflict` if a new key is taken.
    func updateUser(_ user: UserRecord) throws
    /// Removes an account with its sessions and codes; returns whether it existed.
    @discardableResult func deleteUser(id: UUID) throws -> Bool
    /// How many accounts exist.
    func userCount() throws -> Int
    /// The account whose nickname has this confusable skeleton of this kind.
    func user(usernameSkeleton: String, kind: SkeletonKind) throws -> UserRecord?

    // MARK: Sessions and refresh tokens

    /// Adds a session with the keyed hash of its first refresh token.
    func insertSession(_ session: SessionRecord, refresh: SessionRefresh) throws
    func session(id: UUID) throws -> SessionRecord?
    /// The session `id` with its account (`nil` if the account is gone), read in one statement:
    /// what every authenticated request needs. Never locks a row, even in a write transaction.
    func sessionWithUser(id: UUID) throws -> (session: SessionRecord, user: UserRecord?)?
    /// Every session of a user, newest first, revoked ones included.
    func sessions(userID: UUID) throws -> [SessionRecord]
    /// Sets `lastUsedAt`.
    func touchSession(id: UUID, at: Date) throws
    /// Revokes one session if it is not revoked yet, forgetting its client address; returns
    /// whether it changed.
    @discardableResult func revokeSession(id: UUID, at: Date) throws -> Bool
    /// Revokes every live session of a user except `except`, forgetting their client addresses;
    /// returns how many changed.
    @discardableResult func revokeSessions(userID: UUID, except: UUID?, at: Date) throws -> Int
    /// Up to `limit` sessions that ended (revoked, past their absolute end at `now`, or unused
    /// since `idleSince`) and still keep a client address, for the sweep that forgets it. A read:
    /// it may scan (no index may name `client_address` or `last_used_at`, which every refresh
    /// writes).
    func endedSessionsWithAddress(now: Date, idleSince: Date, limit: Int) throws -> [UUID]
    /// Forgets the client address of each of these sessions that has ended as
    /// ``endedSessionsWithAddress(now:idleSince:limit:)`` says; returns how many changed.
    @discardableResult func forgetClientAddresses(sessionIDs: [UUID], now: Date, idleSince: Date) throws -> Int

    /// The session `id` with where its refresh tokens stand and its account (`nil` when either is
    /// gone), in one statement; the session row is locked for the rest of a write transaction
    /// where the backend has row locks, so simultaneous refreshes of one session decide one after
    /// another.
    func refreshableSession(id: UUID) throws -> RefreshableSession?
    /// Moves the session's refresh tokens on to `next` and sets its `lastUsedAt` and the
    /// `clientAddress` it was used from, if its current generation is still `current`; returns
    /// whether it did. One statement: of simultaneous rotations of one generation exactly one wins.
    func rotateRefresh(
        sessionID: UUID, from current: Int64, to next: SessionRefresh, at date: Date, clientAddress: String?
    ) throws -> Bool

    // MARK: One-time codes and verification tokens

    /// Stores a code, replacing any earlier one for the same address and purpose.
    func upsertCode(_ code: CodeRecord) throws
    func code(emailKey: String, purpose: String) throws -> CodeRecord?
    /// Adds one wrong try and returns the new count.
    func incrementCodeAttempts(emailKey: String, purpose: String) throws -> Int
    @discardableResult func deleteCode(emailKey: String, purpose: String) throws -> Bool

    func insertVerificationToken(_ token: VerificationTokenRecord) throws
    /// Deletes and returns the token with this hash, if any (single use).
    func takeVerificationToken(hash: [UInt8]) throws -> VerificationTokenRecord?

    // MARK: Signing keys and settings

    /// Every signing key, oldest first.
    func signingKeys() throws -> [SigningKeyRecord]
    func insertSigningKey(_ key: SigningKeyRecord) throws
    /// Sets `retiredAt` of every key but `kid` that is not retired yet.
    func retireSigningKeys(except kid: String, at: Date) throws

    /// A server-wide secret or setting by name.
    func setting(_ name: String) throws -> [UInt8]?
    /// Stores `value` under `name` unless one is there; returns the value in force afterwards.
    func insertSettingIfAbsent(_ name: String, value: [UInt8]) throws -> [UInt8]

    // MARK: Login throttling

    /// The throttle row of `key`, created empty (window starting `now`) when absent, and locked
    /// for the rest of the transaction where the backend has row locks, so concurrent tries of one
    /// account are counted one after another.
    func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord
    /// Saves a throttle row read with ``lockLoginThrottle(key:now:)``.
    func updateLoginThrottle(_ record: LoginThrottleRecord) throws
    /// Forgets the failures of `key` (after a success or a password reset).
    func deleteLoginThrottle(key: String) throws

    // MARK: Rate counters

    /// Counts one event under `key` in a fixed window of `window` seconds that starts at the first
    /// event (a new window once the old one has passed), atomically, and returns the counter.
    func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter

    // MARK: Mail outbox

    func enqueueMail(_ message: OutboxMessage) throws
    /// Messages due at `now`, oldest first, at most `limit`.
    func dueMail(now: Date, limit: Int) throws -> [OutboxMessage]
    /// Claims a due message for sending until `until`; returns `false` if another sender has it.
    func claimMail(id: UUID, now: Date, until: Date) throws -> Bool
    /// Removes a delivered message.
    func deleteMail(id: UUID) throws
    /// Records a failed try and when to try again.
    func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws
    /// How many messages wait.
    func outboxCount() throws -> Int
    /// Every waiting row of kind ``OutboxKind/mail``, whatever its due time or claim, oldest
    /// first: what sealing the database's secrets (or unsealing them) rewrites.
    func waitingMail() throws -> [OutboxMessage]
    /// Replaces the subject and body of the message `id` (with their sealed or opened text);
    /// returns whether it exists.
    @discardableResult func replaceMailText(id: UUID, subject: String, body: String) throws -> Bool

    // MARK: Sealing and unsealing secrets

    /// The name of every setting.
    func settingNames() throws -> [String]
    /// Stores `value` under `name`, replacing any value there.
    func replaceSetting(_ name: String, value: [UInt8]) throws
    /// Removes a setting; returns whether there was one.
    @discardableResult func deleteSetting(_ name: String) throws -> Bool
    /// Replaces the stored seed of the key `kid`; returns whether the key exists.
    @discardableResult func replaceSigningKeySeed(kid: String, seed: [UInt8]) throws -> Bool

    // MARK: Pending sign-ups

    /// Stores a pending sign-up, replacing the one of the same address; throws
    /// `.conflict(field: "username")` when another address's pending sign-up has the nickname key or
    /// one of its skeletons.
    func upsertPendingSignUp(_ pending: PendingSignUpRecord) throws
    func pendingSignUp(emailKey: String) throws -> PendingSignUpRecord?
    func pendingSignUp(usernameKey: String) throws -> PendingSignUpRecord?
    /// The pending sign-up whose skeleton of `kind` is `usernameSkeleton`, if any.
    func pendingSignUp(usernameSkeleton: String, kind: SkeletonKind) throws -> PendingSignUpRecord?
    @discardableResult func deletePendingSignUp(emailKey: String) throws -> Bool
    /// Removes pending sign-ups that expired at or before `before`; returns how many.
    @discardableResult func deletePendingSignUps(expiredBefore before: Date) throws -> Int

    // MARK: Codes under a resend cooldown

    /// Stores `code` like ``upsertCode(_:)`` unless the address's code for its purpose was created
    /// after `cutoff`; returns whether it was stored. One statement, so of simultaneous calls on
    /// several connections (or servers) at most one stores a code within the cooldown.
    func upsertCode(_ code: CodeRecord, ifCreatedBefore cutoff: Date) throws -> Bool

    // MARK: Second factor

    /// The account's authenticator factor, confirmed or not; locked for the rest of a write
    /// transaction where the backend has row locks.
    func totpFactor(userID: UUID) throws -> TOTPFactorRecord?
    /// Stores a new unconfirmed factor, replacing an unconfirmed one; returns `false` (and
    /// changes nothing) when the account has a confirmed factor.
    func upsertPendingTOTP(_ factor: TOTPFactorRecord) throws -> Bool
    /// Confirms the account's unconfirmed factor with its first accepted `step`, and marks the
    /// account ``UserRecord/totpEnabled``; returns `false` when there is none to confirm.
    func confirmTOTP(userID: UUID, at date: Date, step: Int64) throws -> Bool
    /// Records `step` as the last one accepted if it is later than the last one, in one
    /// statement; returns whether it was, so of simultaneous uses of one code exactly one wins.
    func useTOTPStep(userID: UUID, step: Int64) throws -> Bool
    /// Removes the factor and every recovery code, and clears ``UserRecord/totpEnabled`` and
    /// ``UserRecord/recoveryCodesLeft``; returns whether there was a factor.
    @discardableResult func disableTOTP(userID: UUID) throws -> Bool

    /// Replaces the account's recovery codes (by their keyed hashes) and sets
    /// ``UserRecord/recoveryCodesLeft``.
    func replaceRecoveryCodes(userID: UUID, hashes: [[UInt8]]) throws
    /// Spends the recovery code with this hash; returns how many are left after it, or `nil` when
    /// the account has no such unused code. Of simultaneous uses of one code exactly one wins.
    func useRecoveryCode(userID: UUID, hash: [UInt8]) throws -> Int?

    func insertSecondFactorChallenge(_ challenge: SecondFactorChallengeRecord) throws
    /// The challenge with this token hash; locked for the rest of a write transaction where the
    /// backend has row locks, so simultaneous answers to one challenge run one after another.
    func secondFactorChallenge(hash: [UInt8]) throws -> SecondFactorChallengeRecord?
    /// Adds one wrong try and returns the new count (0 when there is no such challenge).
    func countSecondFactorChallengeAttempt(hash: [UInt8]) throws -> Int
    /// Removes a challenge (answered, or spent); returns whether it existed.
    @discardableResult func deleteSecondFactorChallenge(hash: [UInt8]) throws -> Bool
    /// Removes the account's challenges that expired at or before `before`, or all of them when
    /// `before` is `nil`; returns how many.
    @discardableResult func deleteSecondFactorChallenges(userID: UUID, expiredBefore before: Date?) throws -> Int

    // MARK: Passkeys

    /// Stores a new passkey; returns `false` (and stores nothing) when its credential id is
    /// already stored, on this account or another.
    func insertPasskey(_ passkey: PasskeyRecord) throws -> Bool
    /// The passkey with this credential id, whoever owns it; locked for the rest of a write
    /// transaction where the backend has row locks, so two logins with it are judged in turn.
    func passkey(credentialID: [UInt8]) throws -> PasskeyRecord?
    /// The account's passkeys, oldest first.
    func passkeys(userID: UUID) throws -> [PasskeyRecord]
    func passkeyCount(userID: UUID) throws -> Int
    /// Records a login with the passkey: its new counter and backup state, and when.
    func recordPasskeyUse(id: UUID, signCount: Int64, backedUp: Bool, at date: Date) throws
    /// Removes the account's passkey `id`; returns whether the account had it.
    @discardableResult func deletePasskey(id: UUID, userID: UUID) throws -> Bool

    func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) throws
    /// Removes and returns the challenge with this hash, in one statement, so of simultaneous
    /// answers (on any server) at most one gets it.
    func takeWebAuthnChallenge(hash: [UInt8]) throws -> WebAuthnChallengeRecord?
    /// Removes challenges that expired at or before `before`; returns how many.
    @discardableResult func deleteWebAuthnChallenges(expiredBefore before: Date) throws -> Int
    // MARK: Operators

    /// Grants or revokes the admin role; returns whether the account exists.
    @discardableResult func setAdmin(userID: UUID, _ isAdmin: Bool) throws -> Bool
    /// Every account with the admin role, by nickname.
    func admins() throws -> [UserRecord]
    /// Disables the account from `at`, or enables it with `nil`; returns whether the account exists.
    @discardableResult func setDisabled(userID: UUID, at: Date?) throws -> Bool
    func insertAuditEvent(_ event: AuditEventRecord) throws
    /// Up to `limit` audit events, newest first, after `after` (a keyset position) when given.
    func auditEvents(after: KeysetPosition?, limit: Int) throws -> [AuditEventRecord]
    /// Up to `limit` accounts matching `query` in its order, after `after` when given (a position
    /// of another order gives an empty last page), and where the next page starts; every filter
    /// and the order are served by an index, so a page costs about the same at any size.
    func adminUsers(_ query: AdminUserQuery, after: AdminSearchPosition?, limit: Int) throws -> AdminSearchPage
    /// The account `id` as the search lists it.
    func adminUser(id: UUID) throws -> AdminUserRow?

    // MARK: Security events and hourly counters

    func insertSecurityEvent(_ event: SecurityEventRecord) throws
    /// Up to `limit` of the account's security events, newest first (by time, then id), after
    /// `after` (a keyset position) when given.
    func securityEvents(userID: UUID, after: KeysetPosition?, limit: Int) throws -> [SecurityEventRecord]
    /// Removes up to `limit` security events older than `before`, oldest first; returns how many.
    @discardableResult func deleteSecurityEvents(before: Date, limit: Int) throws -> Int
    /// Up to `limit` accounts with more than `count` security events. A read: it may scan.
    func accountsWithSecurityEvents(over count: Int, limit: Int) throws -> [UUID]
    /// Removes the account's security events but the `keeping` newest; returns how many.
    @discardableResult func trimSecurityEvents(userID: UUID, keeping: Int) throws -> Int

    /// Adds each count to its hour and name (a row made at zero when absent), in one statement
    /// each, so counts of several servers add up and none overwrites another.
    func addHourlyCounts(_ counts: [HourlyCount]) throws
    /// Every count of an hour at or after `from`.
    func hourlyCounts(from: Date) throws -> [HourlyCount]
    /// Removes counts of hours before `before`; returns how many rows.
    @discardableResult func deleteHourlyCounts(before: Date) throws -> Int

    // MARK: Sign in with Apple

    /// Links an Apple ID and sets ``UserRecord/appleLinked``; returns `false` (and changes
    /// nothing) when the Apple ID is linked already, or the account has one.
    func insertAppleIdentity(_ identity: AppleIdentityRecord) throws -> Bool
    /// The account linked to Apple's user `subject`; locked for the rest of a write transaction
    /// where the backend has row locks.
    func appleIdentity(subject: String) throws -> AppleIdentityRecord?
    func appleIdentity(userID: UUID) throws -> AppleIdentityRecord?
    /// Replaces the sealed Apple refresh token of a linked Apple ID.
    func setAppleRefreshToken(subject: String, sealed: [UInt8]?) throws
    /// Unlinks the account's Apple ID and clears ``UserRecord/appleLinked``; returns what was
    /// removed, in one statement, so of two simultaneous unlinks one gets it.
    func deleteAppleIdentity(userID: UUID) throws -> AppleIdentityRecord?
    func insertAppleContinuation(_ continuation: AppleContinuationRecord) throws
    /// The continuation with this hash; locked for the rest of a write transaction where the
    /// backend has row locks, so two completions of one token run one after the other.
    func appleContinuation(hash: [UInt8]) throws -> AppleContinuationRecord?
    @discardableResult func deleteAppleContinuation(hash: [UInt8]) throws -> Bool
    /// Removes continuations that expired at or before `before`; returns how many.
    @discardableResult func deleteAppleContinuations(expiredBefore before: Date) throws -> Int
    /// Records an accepted Apple identity token; returns `false` (and changes nothing) when it was
    /// recorded already. One statement: of simultaneous uses of one token on any server exactly
    /// one records it (on PostgreSQL the others wait for its commit, then get `false`).
    func insertUsedAppleToken(_ token: UsedAppleTokenRecord) throws -> Bool
    /// Whether `token` was recorded as accepted (and has not expired from the record yet): the
    /// early refusal of a replay, before anything is asked of Apple.
    func appleTokenUsed(_ token: UsedAppleTokenRecord) throws -> Bool
    /// Removes up to `limit` used tokens that expired at or before `before`, oldest first;
    /// returns how many.
    @discardableResult func deleteUsedAppleTokens(expiredBefore before: Date, limit: Int) throws -> Int
}

extension StoreTransaction {
    /// Adds a session whose refresh token nobody holds (its hash is of random bytes), so no
    /// refresh token can refresh it.
    public func insertSession(_ session: SessionRecord) throws {
        var random = SystemRandomNumberGenerator()
        let hash = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        try insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: hash))
    }
}
