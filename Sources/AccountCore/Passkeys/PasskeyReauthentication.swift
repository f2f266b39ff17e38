import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebAuthn

/// A passkey as the proof of a sensitive change (deletion, the second factor's changes, passkey
/// removal), the way an account without a password and without Apple proves who it is, and any
/// account may instead of its password: `POST /auth/passkeys/reauth/options` gives a challenge for
/// the caller's passkeys, and the change's request carries the assertion as `passkey_assertion`.
///
/// The challenge is single use on every server, lives 5 minutes, and is bound to the account and
/// to the session that asked for it: it is stored under the SHA-256 of the session id and the
/// challenge, so an assertion for another session's challenge finds nothing.
package enum PasskeyReauthentication {
    /// The stored hash of reauthentication challenge `challenge` of session `sessionID`.
    package static func challengeHash(_ challenge: [UInt8], sessionID: UUID) -> [UInt8] {
        Digest.sha256(Array("passkey-reauth:\(sessionID.lowercasedText):".utf8) + challenge)
    }
}

extension Services {
    /// Checks a `passkey_assertion` proof: a challenge of ``PasskeyOperations/reauthenticationChallenge(for:)``
    /// of this session (spent here, whatever follows: `400 challenge_invalid` when it is unknown,
    /// used, another session's or another account's; `400 challenge_expired`), answered by one of
    /// the caller's passkeys with user verification, its counter moving forward (recorded). Any
    /// other failure, another account's passkey included, is `403 passkey_invalid`, logged as
    /// `passkey_refused` with the check.
    package func checkPasskeyProof(_ credential: PasskeyAssertionCredential, _ caller: SignedInCaller, via route: String) async throws {
        let ceremonies = passkeys
        let (userID, sessionID, now) = (caller.userID, caller.sessionID, caller.now)
        var named: PasskeyRecord?
        do {
            let assertion = try PasskeyAssertion(credential)
            let hash = PasskeyReauthentication.challengeHash(assertion.clientData.challenge, sessionID: sessionID)
            switch try await store.write({ try ceremonies.take(hash, .reauthentication, userID: userID, now: now, in: $0) }) {
            case .unknown:
                events.record(caller.event(.logged(.passkeyRefused), ["via": route, "reason": "challenge_unknown"]))
                throw APIError.challengeInvalid
            case .expired:
                events.record(caller.event(.logged(.passkeyRefused), ["via": route, "reason": "challenge_expired"]))
                throw APIError.challengeExpired
            case .taken: break
            }
            let rawID = assertion.rawID
            // Another account's passkey is, for this account, no passkey at all.
            guard let passkey = try await store.read({ try $0.passkey(credentialID: rawID) }), passkey.userID == userID else {
                throw PasskeyRefusal.unknownCredential
            }
            named = passkey
            let verified = try assertion.verify(against: passkey, party: ceremonies.party)
            let refusal = try await store.write { tx -> PasskeyRefusal? in
                guard try tx.lockUser(id: userID) != nil else { return .unknownCredential }
                return try PasskeyAssertion.recordUse(of: passkey, verified, userID: userID, now: now, in: tx)
            }
            if let refusal { throw refusal }
        } catch let refusal as PasskeyRefusal {
            PasskeyAssertion.record(refusal, caller.caller, passkey: named, via: route, to: events)
            throw APIError.passkeyProofFailed
        }
    }
}

extension APIError {
    package static let passkeyProofFailed = APIError(403, .passkeyInvalid)
}
