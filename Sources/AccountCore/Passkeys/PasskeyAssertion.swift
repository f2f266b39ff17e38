import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebAuthn

/// An assertion (`AuthenticationResponseJSON`) read from its JSON form, and what a login and a
/// reauthentication both do with it: verify it against the stored passkey, and record the use.
package struct PasskeyAssertion: Sendable {
    package let rawID: [UInt8]
    package let clientDataJSON: [UInt8]
    package let authenticatorData: [UInt8]
    package let signature: [UInt8]
    package let userHandle: [UInt8]?
    /// The client data, read to find the challenge (verified again with the signature).
    package let clientData: CollectedClientData

    /// Reads `credential`; a field not base64url, too long, or client data that is not JSON is a
    /// ``PasskeyRefusal``.
    package init(_ credential: PasskeyAssertionCredential) throws {
        rawID = try PasskeyCeremonies.bytes(credential.rawId, limit: AuthenticatorData.maximumCredentialIDLength)
        guard credential.type == "public-key", credential.id == credential.rawId else { throw PasskeyRefusal.malformed }
        clientDataJSON = try PasskeyCeremonies.bytes(credential.response.clientDataJSON, limit: CollectedClientData.maximumSize)
        authenticatorData = try PasskeyCeremonies.bytes(credential.response.authenticatorData, limit: 1024)
        signature = try PasskeyCeremonies.bytes(credential.response.signature, limit: 1024)
        userHandle = try credential.response.userHandle.map { try PasskeyCeremonies.bytes($0, limit: 64) }
        do throws(WebAuthnError) { clientData = try CollectedClientData(json: clientDataJSON) } catch { throw PasskeyRefusal.check(error) }
    }

    /// Checks the signature and the rest of §7.2 against `passkey`, and that a `userHandle` sent is
    /// its owner's.
    package func verify(against passkey: PasskeyRecord, party: RelyingParty) throws -> VerifiedAssertion {
        if let userHandle, userHandle != PasskeyCeremonies.userHandle(passkey.userID) { throw PasskeyRefusal.wrongUser }
        do throws(WebAuthnError) {
            return try party.verifyAssertion(
                clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
                expectedChallenge: clientData.challenge, credential: StoredCredential(
                    publicKey: try CredentialPublicKey(encoded: passkey.publicKey), signCount: UInt32(clamping: passkey.signCount),
                    backupEligible: passkey.backupEligible))
        } catch { throw PasskeyRefusal.check(error) }
    }

    /// Records the use of `passkey` (of account `userID`, locked by the caller) in `tx`: read again
    /// and locked, so of two uses with one counter value the second sees the first; the refusal
    /// when it went (or changed hands) meanwhile, or the counter did not move forward.
    package static func recordUse(
        of passkey: PasskeyRecord, _ verified: VerifiedAssertion, userID: UUID, now: Date, in tx: any StoreTransaction
    ) throws -> PasskeyRefusal? {
        guard let current = try tx.passkey(credentialID: passkey.credentialID), current.id == passkey.id, current.userID == userID else {
            return .unknownCredential
        }
        let count = Int64(verified.signCount)
        if count != 0 || current.signCount != 0, count <= current.signCount { return .check(.signCountWentBack) }
        try tx.recordPasskeyUse(id: current.id, signCount: count, backedUp: verified.backedUp, at: now)
        return nil
    }

    /// Records `refusal` (`passkey_refused` naming the check, and `passkey_counter_regressed` for a
    /// counter that went back) under the account of `passkey`, when known.
    package static func record(_ refusal: PasskeyRefusal, _ caller: Caller, passkey: PasskeyRecord?, via: String, to events: DomainEvents) {
        let passkeyID = passkey?.id.lowercasedText ?? ""
        if case .check(.signCountWentBack) = refusal {
            events.record(caller.event(.logged(.passkeyCounterRegressed), userID: passkey?.userID, ["passkey_id": passkeyID]))
        }
        events.record(caller.event(.logged(.passkeyRefused), userID: passkey?.userID, ["via": via, "reason": refusal.reason, "passkey_id": passkeyID]))
    }
}
