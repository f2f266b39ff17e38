import Foundation

/// A write transaction that tells the ``SessionReadModel`` what each statement is about to change,
/// before it runs: the one way this process's writes reach a store that keeps a read model.
///
/// Every operation of ``StoreTransaction`` is listed here, so a new one does not compile until
/// someone says whether it changes a session or an account. The rule: an operation that changes a
/// `sessions` row names the session (or the account, for all its sessions); one that changes a
/// `users` row, or what ``UserRecord`` shows (the second-factor summary), names the account.
/// Inserts name nothing: the model holds only what was read, never an absence.
public final class ReadModelTransaction: StoreTransaction {
    private let base: any StoreTransaction
    private let scope: SessionReadModel.WriteScope

    public init(_ base: any StoreTransaction, scope: SessionReadModel.WriteScope) {
        self.base = base
        self.scope = scope
    }

    // MARK: Changes the model holds

    public func updateUser(_ user: UserRecord) throws {
        scope.userChanges(user.id)
        try base.updateUser(user)
    }

    @discardableResult public func deleteUser(id: UUID) throws -> Bool {
        scope.userChanges(id)
        return try base.deleteUser(id: id)
    }

    public func touchSession(id: UUID, at date: Date) throws {
        scope.sessionChanges(id)
        try base.touchSession(id: id, at: date)
    }

    @discardableResult public func revokeSession(id: UUID, at date: Date) throws -> Bool {
        scope.sessionChanges(id)
        return try base.revokeSession(id: id, at: date)
    }

    @discardableResult public func revokeSessions(userID: UUID, except: UUID?, at date: Date) throws -> Int {
        scope.userChanges(userID)
        return try base.revokeSessions(userID: userID, except: except, at: date)
    }

    /// A rotation moves the session's last use (its idle end), its client address and its current
    /// token.
    public func rotateRefresh(
        sessionID: UUID, from current: Int64, to next: SessionRefresh, at date: Date, clientAddress: String?
    ) throws -> Bool {
        scope.sessionChanges(sessionID)
        return try base.rotateRefresh(sessionID: sessionID, from: current, to: next, at: date, clientAddress: clientAddress)
    }

    @discardableResult public func forgetClientAddresses(sessionIDs: [UUID], now: Date, idleSince: Date) throws -> Int {
        for id in sessionIDs { scope.sessionChanges(id) }
        return try base.forgetClientAddresses(sessionIDs: sessionIDs, now: now, idleSince: idleSince)
    }

    /// The role and the disabled state are part of the account every session is read with.
    @discardableResult public func setAdmin(userID: UUID, _ isAdmin: Bool) throws -> Bool {
        scope.userChanges(userID)
        return try base.setAdmin(userID: userID, isAdmin)
    }

    @discardableResult public func setDisabled(userID: UUID, at date: Date?) throws -> Bool {
        scope.userChanges(userID)
        return try base.setDisabled(userID: userID, at: date)
    }

    public func upsertPendingTOTP(_ factor: TOTPFactorRecord) throws -> Bool {
        scope.userChanges(factor.userID)
        return try base.upsertPendingTOTP(factor)
    }

    public func confirmTOTP(userID: UUID, at date: Date, step: Int64) throws -> Bool {
        scope.userChanges(userID)
        return try base.confirmTOTP(userID: userID, at: date, step: step)
    }

    @discardableResult public func disableTOTP(userID: UUID) throws -> Bool {
        scope.userChanges(userID)
        return try base.disableTOTP(userID: userID)
    }

    public func replaceRecoveryCodes(userID: UUID, hashes: [[UInt8]]) throws {
        scope.userChanges(userID)
        try base.replaceRecoveryCodes(userID: userID, hashes: hashes)
    }

    public func useRecoveryCode(userID: UUID, hash: [UInt8]) throws -> Int? {
        scope.userChanges(userID)
        return try base.useRecoveryCode(userID: userID, hash: hash)
    }

    // MARK: Writes the model does not hold (new rows, other tables)

    public func insertUser(_ user: UserRecord) throws { try base.insertUser(user) }
    public func insertSession(_ session: SessionRecord) throws { try base.insertSession(session) }
    public func insertSession(_ session: SessionRecord, refresh: SessionRefresh) throws {
        try base.insertSession(session, refresh: refresh)
    }
    public func insertAuditEvent(_ event: AuditEventRecord) throws { try base.insertAuditEvent(event) }
    public func upsertCode(_ code: CodeRecord) throws { try base.upsertCode(code) }
    public func upsertCode(_ code: CodeRecord, ifCreatedBefore cutoff: Date) throws -> Bool {
        try base.upsertCode(code, ifCreatedBefore: cutoff)
    }
    public func incrementCodeAttempts(emailKey: String, purpose: String) throws -> Int {
        try base.incrementCodeAttempts(emailKey: emailKey, purpose: purpose)
    }
    @discardableResult public func deleteCode(emailKey: String, purpose: String) throws -> Bool {
        try base.deleteCode(emailKey: emailKey, purpose: purpose)
    }
    public func insertVerificationToken(_ token: VerificationTokenRecord) throws { try base.insertVerificationToken(token) }
    public func takeVerificationToken(hash: [UInt8]) throws -> VerificationTokenRecord? { try base.takeVerificationToken(hash: hash) }
    public func insertSigningKey(_ key: SigningKeyRecord) throws { try base.insertSigningKey(key) }
    public func retireSigningKeys(except kid: String, at date: Date) throws { try base.retireSigningKeys(except: kid, at: date) }
    public func insertSettingIfAbsent(_ name: String, value: [UInt8]) throws -> [UInt8] {
        try base.insertSettingIfAbsent(name, value: value)
    }
    public func replaceSetting(_ name: String, value: [UInt8]) throws { try base.replaceSetting(name, value: value) }
    @discardableResult public func deleteSetting(_ name: String) throws -> Bool { try base.deleteSetting(name) }
    @discardableResult public func replaceSigningKeySeed(kid: String, seed: [UInt8]) throws -> Bool {
        try base.replaceSigningKeySeed(kid: kid, seed: seed)
    }
    public func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord { try base.lockLoginThrottle(key: key, now: now) }
    public func updateLoginThrottle(_ record: LoginThrottleRecord) throws { try base.updateLoginThrottle(record) }
    public func deleteLoginThrottle(key: String) throws { try base.deleteLoginThrottle(key: key) }
    public func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter {
        try base.incrementRateCounter(key: key, now: now, window: window)
    }
    public func enqueueMail(_ message: OutboxMessage) throws { try base.enqueueMail(message) }
    public func claimMail(id: UUID, now: Date, until: Date) throws -> Bool { try base.claimMail(id: id, now: now, until: until) }
    public func deleteMail(id: UUID) throws { try base.deleteMail(id: id) }
    @discardableResult public func replaceMailText(id: UUID, subject: String, body: String) throws -> Bool {
        try base.replaceMailText(id: id, subject: subject, body: body)
    }
    public func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws {
        try base.rescheduleMail(id: id, attempts: attempts, nextAttemptAt: nextAttemptAt)
    }
    public func upsertPendingSignUp(_ pending: PendingSignUpRecord) throws { try base.upsertPendingSignUp(pending) }
    @discardableResult public func deletePendingSignUp(emailKey: String) throws -> Bool { try base.deletePendingSignUp(emailKey: emailKey) }
    @discardableResult public func deletePendingSignUps(expiredBefore before: Date) throws -> Int {
        try base.deletePendingSignUps(expiredBefore: before)
    }
    public func useTOTPStep(userID: UUID, step: Int64) throws -> Bool { try base.useTOTPStep(userID: userID, step: step) }
    public func insertSecondFactorChallenge(_ challenge: SecondFactorChallengeRecord) throws {
        try base.insertSecondFactorChallenge(challenge)
    }
    public func countSecondFactorChallengeAttempt(hash: [UInt8]) throws -> Int { try base.countSecondFactorChallengeAttempt(hash: hash) }
    @discardableResult public func deleteSecondFactorChallenge(hash: [UInt8]) throws -> Bool {
        try base.deleteSecondFactorChallenge(hash: hash)
    }
    @discardableResult public func deleteSecondFactorChallenges(userID: UUID, expiredBefore before: Date?) throws -> Int {
        try base.deleteSecondFactorChallenges(userID: userID, expiredBefore: before)
    }

    public func insertPasskey(_ passkey: PasskeyRecord) throws -> Bool { try base.insertPasskey(passkey) }
    public func recordPasskeyUse(id: UUID, signCount: Int64, backedUp: Bool, at date: Date) throws {
        try base.recordPasskeyUse(id: id, signCount: signCount, backedUp: backedUp, at: date)
    }
    @discardableResult public func deletePasskey(id: UUID, userID: UUID) throws -> Bool { try base.deletePasskey(id: id, userID: userID) }
    public func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) throws { try base.insertWebAuthnChallenge(challenge) }
    public func takeWebAuthnChallenge(hash: [UInt8]) throws -> WebAuthnChallengeRecord? { try base.takeWebAuthnChallenge(hash: hash) }
    @discardableResult public func deleteWebAuthnChallenges(expiredBefore before: Date) throws -> Int {
        try base.deleteWebAuthnChallenges(expiredBefore: before)
    }

    /// Whether an Apple ID is linked is part of the account every session is read with.
    public func insertAppleIdentity(_ identity: AppleIdentityRecord) throws -> Bool {
        scope.userChanges(identity.userID)
        return try base.insertAppleIdentity(identity)
    }
    public func deleteAppleIdentity(userID: UUID) throws -> AppleIdentityRecord? {
        scope.userChanges(userID)
        return try base.deleteAppleIdentity(userID: userID)
    }
    public func setAppleRefreshToken(subject: String, sealed: [UInt8]?) throws { try base.setAppleRefreshToken(subject: subject, sealed: sealed) }
    public func insertAppleContinuation(_ continuation: AppleContinuationRecord) throws { try base.insertAppleContinuation(continuation) }
    @discardableResult public func deleteAppleContinuation(hash: [UInt8]) throws -> Bool { try base.deleteAppleContinuation(hash: hash) }
    @discardableResult public func deleteAppleContinuations(expiredBefore before: Date) throws -> Int {
        try base.deleteAppleContinuations(expiredBefore: before)
    }
    public func insertUsedAppleToken(_ token: UsedAppleTokenRecord) throws -> Bool { try base.insertUsedAppleToken(token) }
    public func appleTokenUsed(_ token: UsedAppleTokenRecord) throws -> Bool { try base.appleTokenUsed(token) }
    @discardableResult public func deleteUsedAppleTokens(expiredBefore before: Date, limit: Int) throws -> Int {
        try base.deleteUsedAppleTokens(expiredBefore: before, limit: limit)
    }

    // MARK: Reads

    public func user(id: UUID) throws -> UserRecord? { try base.user(id: id) }
    public func lockUser(id: UUID) throws -> UserRecord? { try base.lockUser(id: id) }
    public func user(usernameKey: String) throws -> UserRecord? { try base.user(usernameKey: usernameKey) }
    public func user(emailKey: String) throws -> UserRecord? { try base.user(emailKey: emailKey) }
    public func userCount() throws -> Int { try base.userCount() }
    public func user(usernameSkeleton: String, kind: SkeletonKind) throws -> UserRecord? {
        try base.user(usernameSkeleton: usernameSkeleton, kind: kind)
    }
    public func session(id: UUID) throws -> SessionRecord? { try base.session(id: id) }
    public func sessionWithUser(id: UUID) throws -> (session: SessionRecord, user: UserRecord?)? { try base.sessionWithUser(id: id) }
    public func sessions(userID: UUID) throws -> [SessionRecord] { try base.sessions(userID: userID) }
    public func endedSessionsWithAddress(now: Date, idleSince: Date, limit: Int) throws -> [UUID] {
        try base.endedSessionsWithAddress(now: now, idleSince: idleSince, limit: limit)
    }
    public func code(emailKey: String, purpose: String) throws -> CodeRecord? { try base.code(emailKey: emailKey, purpose: purpose) }
    public func signingKeys() throws -> [SigningKeyRecord] { try base.signingKeys() }
    public func setting(_ name: String) throws -> [UInt8]? { try base.setting(name) }
    public func dueMail(now: Date, limit: Int) throws -> [OutboxMessage] { try base.dueMail(now: now, limit: limit) }
    public func outboxCount() throws -> Int { try base.outboxCount() }
    public func waitingMail() throws -> [OutboxMessage] { try base.waitingMail() }
    public func settingNames() throws -> [String] { try base.settingNames() }
    public func pendingSignUp(emailKey: String) throws -> PendingSignUpRecord? { try base.pendingSignUp(emailKey: emailKey) }
    public func pendingSignUp(usernameKey: String) throws -> PendingSignUpRecord? { try base.pendingSignUp(usernameKey: usernameKey) }
    public func pendingSignUp(usernameSkeleton: String, kind: SkeletonKind) throws -> PendingSignUpRecord? {
        try base.pendingSignUp(usernameSkeleton: usernameSkeleton, kind: kind)
    }
    public func totpFactor(userID: UUID) throws -> TOTPFactorRecord? { try base.totpFactor(userID: userID) }
    public func passkey(credentialID: [UInt8]) throws -> PasskeyRecord? { try base.passkey(credentialID: credentialID) }
    public func passkeys(userID: UUID) throws -> [PasskeyRecord] { try base.passkeys(userID: userID) }
    public func passkeyCount(userID: UUID) throws -> Int { try base.passkeyCount(userID: userID) }
    public func secondFactorChallenge(hash: [UInt8]) throws -> SecondFactorChallengeRecord? { try base.secondFactorChallenge(hash: hash) }
    public func refreshableSession(id: UUID) throws -> RefreshableSession? { try base.refreshableSession(id: id) }
    public func admins() throws -> [UserRecord] { try base.admins() }
    public func appleIdentity(subject: String) throws -> AppleIdentityRecord? { try base.appleIdentity(subject: subject) }
    public func appleIdentity(userID: UUID) throws -> AppleIdentityRecord? { try base.appleIdentity(userID: userID) }
    public func appleContinuation(hash: [UInt8]) throws -> AppleContinuationRecord? { try base.appleContinuation(hash: hash) }
    public func auditEvents(after: KeysetPosition?, limit: Int) throws -> [AuditEventRecord] { try base.auditEvents(after: after, limit: limit) }
    public func adminUsers(_ query: AdminUserQuery, after: AdminSearchPosition?, limit: Int) throws -> AdminSearchPage {
        try base.adminUsers(query, after: after, limit: limit)
    }
    public func adminUser(id: UUID) throws -> AdminUserRow? { try base.adminUser(id: id) }

    // MARK: Security events and hourly counters: tables the model does not hold

    public func insertSecurityEvent(_ event: SecurityEventRecord) throws { try base.insertSecurityEvent(event) }
    public func securityEvents(userID: UUID, after: KeysetPosition?, limit: Int) throws -> [SecurityEventRecord] {
        try base.securityEvents(userID: userID, after: after, limit: limit)
    }
    @discardableResult public func deleteSecurityEvents(before date: Date, limit: Int) throws -> Int {
        try base.deleteSecurityEvents(before: date, limit: limit)
    }
    public func accountsWithSecurityEvents(over count: Int, limit: Int) throws -> [UUID] {
        try base.accountsWithSecurityEvents(over: count, limit: limit)
    }
    @discardableResult public func trimSecurityEvents(userID: UUID, keeping: Int) throws -> Int {
        try base.trimSecurityEvents(userID: userID, keeping: keeping)
    }
    public func addHourlyCounts(_ counts: [HourlyCount]) throws { try base.addHourlyCounts(counts) }
    public func hourlyCounts(from date: Date) throws -> [HourlyCount] { try base.hourlyCounts(from: date) }
    @discardableResult public func deleteHourlyCounts(before date: Date) throws -> Int { try base.deleteHourlyCounts(before: date) }
}
