import Foundation

/// One-time codes by address and purpose (`codes`), and single-use verification tokens.
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol CodesTransaction {
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

    // MARK: Codes under a resend cooldown

    /// Stores `code` like ``upsertCode(_:)`` unless the address's code for its purpose was created
    /// after `cutoff`; returns whether it was stored. One statement, so of simultaneous calls on
    /// several connections (or servers) at most one stores a code within the cooldown.
    func upsertCode(_ code: CodeRecord, ifCreatedBefore cutoff: Date) throws -> Bool
}
