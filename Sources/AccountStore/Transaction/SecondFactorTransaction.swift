import Foundation

/// The second factor: the authenticator factor, recovery codes, and the second step of a login (`totp_factors`, `recovery_codes`, `mfa_challenges`).
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol SecondFactorTransaction {
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
}
