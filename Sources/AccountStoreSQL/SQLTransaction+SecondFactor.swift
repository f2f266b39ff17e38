import AccountStore
import Foundation

/// Authenticator factors (one per account) and the account's summary of them in `users`.
private enum TOTPSQL {
    static let columns = "user_id, secret, created_at, confirmed_at, last_step"
    /// Read before a code is checked against it, so a second check of the same account waits.
    static let byUser = LockableRead("SELECT \(columns) FROM totp_factors WHERE user_id = ?")
    /// Replaces only an unconfirmed factor: a confirmed one stays, and nothing is returned.
    static let upsertPending = SQLStatement("""
        INSERT INTO totp_factors (\(columns)) VALUES (?, ?, ?, NULL, NULL)
        ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at, last_step = NULL
        WHERE totp_factors.confirmed_at IS NULL
        RETURNING user_id
        """)
    static let confirm = SQLStatement(
        "UPDATE totp_factors SET confirmed_at = ?, last_step = ? WHERE user_id = ? AND confirmed_at IS NULL")
    /// One statement, so simultaneous uses of one code (on any server) are decided by the row:
    /// the one that waited re-checks the condition on the row the winner wrote.
    static let useStep = SQLStatement("""
        UPDATE totp_factors SET last_step = ?
        WHERE user_id = ? AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < ?)
        """)
    static let delete = SQLStatement("DELETE FROM totp_factors WHERE user_id = ?")
    static let markEnabled = SQLStatement("UPDATE users SET totp_enabled = ? WHERE id = ?")
    static let clearSummary = SQLStatement("UPDATE users SET totp_enabled = ?, recovery_codes_left = 0 WHERE id = ?")
}

/// Recovery codes, by their keyed hashes; a used one is deleted.
private enum RecoveryCodeSQL {
    static let insert = SQLStatement("INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)")
    static let deleteAll = SQLStatement("DELETE FROM recovery_codes WHERE user_id = ?")
    static let use = SQLStatement("DELETE FROM recovery_codes WHERE user_id = ? AND code_hash = ?")
    static let setLeft = SQLStatement("UPDATE users SET recovery_codes_left = ? WHERE id = ?")
    static let countDown = SQLStatement(
        "UPDATE users SET recovery_codes_left = recovery_codes_left - 1 WHERE id = ? RETURNING recovery_codes_left")
}

/// The second-factor step of a login (`mfa_token`), by the token's hash.
private enum ChallengeSQL {
    static let columns = "hash, user_id, created_at, expires_at, attempts, first_factor"
    static let insert = SQLStatement("INSERT INTO mfa_challenges (\(columns)) VALUES (?, ?, ?, ?, ?, ?)")
    static let byHash = LockableRead("SELECT \(columns) FROM mfa_challenges WHERE hash = ?")
    static let countAttempt = SQLStatement("UPDATE mfa_challenges SET attempts = attempts + 1 WHERE hash = ? RETURNING attempts")
    static let delete = SQLStatement("DELETE FROM mfa_challenges WHERE hash = ?")
    static let deleteExpired = SQLStatement("DELETE FROM mfa_challenges WHERE user_id = ? AND expires_at <= ?")
    static let deleteAll = SQLStatement("DELETE FROM mfa_challenges WHERE user_id = ?")
}

extension SQLTransaction {
    public func totpFactor(userID: UUID) throws -> TOTPFactorRecord? {
        try first(statement(TOTPSQL.byUser), [.uuid(userID)]) { row in
            TOTPFactorRecord(
                userID: try row.uuid(0), sealedSecret: try row.blob(1), createdAt: row.date(2), confirmedAt: row.optionalDate(3),
                lastStep: row.isNull(4) ? nil : row.int64(4))
        }
    }

    public func upsertPendingTOTP(_ factor: TOTPFactorRecord) throws -> Bool {
        try first(TOTPSQL.upsertPending, [.uuid(factor.userID), .blob(factor.sealedSecret), .date(factor.createdAt)]) { _ in true } ?? false
    }

    public func confirmTOTP(userID: UUID, at date: Date, step: Int64) throws -> Bool {
        guard try execute(TOTPSQL.confirm, [.date(date), .integer(step), .uuid(userID)]) > 0 else { return false }
        try execute(TOTPSQL.markEnabled, [.bool(true), .uuid(userID)], changing: .user(userID))
        return true
    }

    public func useTOTPStep(userID: UUID, step: Int64) throws -> Bool {
        try execute(TOTPSQL.useStep, [.integer(step), .uuid(userID), .integer(step)]) > 0
    }

    @discardableResult
    public func disableTOTP(userID: UUID) throws -> Bool {
        let existed = try execute(TOTPSQL.delete, [.uuid(userID)]) > 0
        try execute(RecoveryCodeSQL.deleteAll, [.uuid(userID)])
        try execute(TOTPSQL.clearSummary, [.bool(false), .uuid(userID)], changing: .user(userID))
        return existed
    }

    public func replaceRecoveryCodes(userID: UUID, hashes: [[UInt8]]) throws {
        try execute(RecoveryCodeSQL.deleteAll, [.uuid(userID)])
        for hash in hashes { try execute(RecoveryCodeSQL.insert, [.uuid(userID), .blob(hash)]) }
        try execute(RecoveryCodeSQL.setLeft, [.int(hashes.count), .uuid(userID)], changing: .user(userID))
    }

    public func useRecoveryCode(userID: UUID, hash: [UInt8]) throws -> Int? {
        guard try execute(RecoveryCodeSQL.use, [.uuid(userID), .blob(hash)]) > 0 else { return nil }
        return try first(RecoveryCodeSQL.countDown, [.uuid(userID)], changing: .user(userID)) { $0.int(0) } ?? 0
    }

    public func insertSecondFactorChallenge(_ challenge: SecondFactorChallengeRecord) throws {
        try execute(ChallengeSQL.insert, [
            .blob(challenge.hash), .uuid(challenge.userID), .date(challenge.createdAt), .date(challenge.expiresAt), .int(challenge.attempts),
            .text(challenge.firstFactor),
        ])
    }

    public func secondFactorChallenge(hash: [UInt8]) throws -> SecondFactorChallengeRecord? {
        try first(statement(ChallengeSQL.byHash), [.blob(hash)]) { row in
            SecondFactorChallengeRecord(
                hash: try row.blob(0), userID: try row.uuid(1), createdAt: row.date(2), expiresAt: row.date(3), attempts: row.int(4),
                firstFactor: row.optionalText(5))
        }
    }

    public func countSecondFactorChallengeAttempt(hash: [UInt8]) throws -> Int {
        try first(ChallengeSQL.countAttempt, [.blob(hash)]) { $0.int(0) } ?? 0
    }

    @discardableResult
    public func deleteSecondFactorChallenge(hash: [UInt8]) throws -> Bool {
        try execute(ChallengeSQL.delete, [.blob(hash)]) > 0
    }

    @discardableResult
    public func deleteSecondFactorChallenges(userID: UUID, expiredBefore before: Date?) throws -> Int {
        guard let before else { return try execute(ChallengeSQL.deleteAll, [.uuid(userID)]) }
        return try execute(ChallengeSQL.deleteExpired, [.uuid(userID), .date(before)])
    }
}
