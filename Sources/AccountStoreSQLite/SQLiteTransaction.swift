import AccountStore
import AccountStoreSQL
import Foundation

/// The ``StoreTransaction`` handed to `read` and `write` bodies: statements on one connection,
/// usable only until the body returns.
final class SQLiteTransaction: StoreTransaction {
    private let connection: Connection
    private var isOpen = true
    /// The statements already written once for every backend.
    let shared: SQLTransaction<Connection>

    init(connection: Connection, writes: Bool) {
        self.connection = connection
        shared = SQLTransaction(connection: connection, writes: writes)
    }

    /// Makes every later call throw; called when the transaction commits or rolls back.
    func end() {
        isOpen = false
        shared.end()
    }

    /// The connection, if the transaction is still open.
    func open() throws -> Connection {
        guard isOpen else {
            throw StoreError.failure(reason: "transaction used outside its read or write closure")
        }
        return connection
    }

    /// Rows of one query, mapped.
    func query<T>(_ sql: String, _ parameters: [SQLValue], row: (Row) throws -> T) throws -> [T] {
        try open().query(sql, parameters, row: row)
    }

    /// The first row of one query, mapped.
    func first<T>(_ sql: String, _ parameters: [SQLValue], row: (Row) throws -> T) throws -> T? {
        try query(sql, parameters, row: row).first
    }

    /// Runs a statement; returns how many rows changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        try open().execute(sql, parameters)
    }
}

// Moving to the shared SQL, table by table.
extension SQLiteTransaction {
    func enqueueMail(_ message: OutboxMessage) throws { try shared.enqueueMail(message) }
    func dueMail(now: Date, limit: Int) throws -> [OutboxMessage] { try shared.dueMail(now: now, limit: limit) }
    func claimMail(id: UUID, now: Date, until: Date) throws -> Bool { try shared.claimMail(id: id, now: now, until: until) }
    func deleteMail(id: UUID) throws { try shared.deleteMail(id: id) }
    func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws {
        try shared.rescheduleMail(id: id, attempts: attempts, nextAttemptAt: nextAttemptAt)
    }
    func outboxCount() throws -> Int { try shared.outboxCount() }
    func insertUser(_ user: UserRecord) throws { try shared.insertUser(user) }
    func user(id: UUID) throws -> UserRecord? { try shared.user(id: id) }
    func user(usernameKey: String) throws -> UserRecord? { try shared.user(usernameKey: usernameKey) }
    func user(emailKey: String) throws -> UserRecord? { try shared.user(emailKey: emailKey) }
    func updateUser(_ user: UserRecord) throws { try shared.updateUser(user) }
    func deleteUser(id: UUID) throws -> Bool { try shared.deleteUser(id: id) }
    func userCount() throws -> Int { try shared.userCount() }
    func user(usernameSkeleton: String, kind: SkeletonKind) throws -> UserRecord? {
        try shared.user(usernameSkeleton: usernameSkeleton, kind: kind)
    }
    func usersWithoutSkeleton(limit: Int) throws -> [UserRecord] { try shared.usersWithoutSkeleton(limit: limit) }
    func insertSession(_ session: SessionRecord) throws { try shared.insertSession(session) }
    func session(id: UUID) throws -> SessionRecord? { try shared.session(id: id) }
    func sessions(userID: UUID) throws -> [SessionRecord] { try shared.sessions(userID: userID) }
    func touchSession(id: UUID, at date: Date) throws { try shared.touchSession(id: id, at: date) }
    func revokeSession(id: UUID, at date: Date) throws -> Bool { try shared.revokeSession(id: id, at: date) }
    func revokeSessions(userID: UUID, except: UUID?, at date: Date) throws -> Int {
        try shared.revokeSessions(userID: userID, except: except, at: date)
    }
    func insertRefreshToken(_ token: RefreshTokenRecord) throws { try shared.insertRefreshToken(token) }
    func refreshToken(hash: [UInt8]) throws -> RefreshTokenRecord? { try shared.refreshToken(hash: hash) }
    func markRefreshTokenUsed(hash: [UInt8], at date: Date, client: [UInt8]?) throws -> Bool {
        try shared.markRefreshTokenUsed(hash: hash, at: date, client: client)
    }
    func upsertCode(_ code: CodeRecord) throws { try shared.upsertCode(code) }
    func upsertCode(_ code: CodeRecord, ifCreatedBefore cutoff: Date) throws -> Bool {
        try shared.upsertCode(code, ifCreatedBefore: cutoff)
    }
    func code(emailKey: String, purpose: String) throws -> CodeRecord? { try shared.code(emailKey: emailKey, purpose: purpose) }
    func incrementCodeAttempts(emailKey: String, purpose: String) throws -> Int {
        try shared.incrementCodeAttempts(emailKey: emailKey, purpose: purpose)
    }
    func deleteCode(emailKey: String, purpose: String) throws -> Bool { try shared.deleteCode(emailKey: emailKey, purpose: purpose) }
    func insertVerificationToken(_ token: VerificationTokenRecord) throws { try shared.insertVerificationToken(token) }
    func takeVerificationToken(hash: [UInt8]) throws -> VerificationTokenRecord? { try shared.takeVerificationToken(hash: hash) }
    func signingKeys() throws -> [SigningKeyRecord] { try shared.signingKeys() }
    func insertSigningKey(_ key: SigningKeyRecord) throws { try shared.insertSigningKey(key) }
    func retireSigningKeys(except kid: String, at date: Date) throws { try shared.retireSigningKeys(except: kid, at: date) }
    func replaceSigningKeySeed(kid: String, seed: [UInt8]) throws -> Bool { try shared.replaceSigningKeySeed(kid: kid, seed: seed) }
    func setting(_ name: String) throws -> [UInt8]? { try shared.setting(name) }
    func insertSettingIfAbsent(_ name: String, value: [UInt8]) throws -> [UInt8] { try shared.insertSettingIfAbsent(name, value: value) }
    func settingNames() throws -> [String] { try shared.settingNames() }
    func replaceSetting(_ name: String, value: [UInt8]) throws { try shared.replaceSetting(name, value: value) }
    func deleteSetting(_ name: String) throws -> Bool { try shared.deleteSetting(name) }
    func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord { try shared.lockLoginThrottle(key: key, now: now) }
    func updateLoginThrottle(_ record: LoginThrottleRecord) throws { try shared.updateLoginThrottle(record) }
    func deleteLoginThrottle(key: String) throws { try shared.deleteLoginThrottle(key: key) }
    func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter {
        try shared.incrementRateCounter(key: key, now: now, window: window)
    }
    func upsertPendingSignUp(_ pending: PendingSignUpRecord) throws { try shared.upsertPendingSignUp(pending) }
    func pendingSignUp(emailKey: String) throws -> PendingSignUpRecord? { try shared.pendingSignUp(emailKey: emailKey) }
    func pendingSignUp(usernameKey: String) throws -> PendingSignUpRecord? { try shared.pendingSignUp(usernameKey: usernameKey) }
    func pendingSignUp(usernameSkeleton: String, kind: SkeletonKind) throws -> PendingSignUpRecord? {
        try shared.pendingSignUp(usernameSkeleton: usernameSkeleton, kind: kind)
    }
    func deletePendingSignUp(emailKey: String) throws -> Bool { try shared.deletePendingSignUp(emailKey: emailKey) }
    func deletePendingSignUps(expiredBefore before: Date) throws -> Int { try shared.deletePendingSignUps(expiredBefore: before) }
}
