import Foundation

/// Passkeys (`passkeys`) and the WebAuthn challenges of their ceremonies (`webauthn_challenges`).
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol PasskeysTransaction {
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
}
