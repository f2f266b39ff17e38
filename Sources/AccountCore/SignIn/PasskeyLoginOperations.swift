import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebAuthn

/// Signing in with a passkey: a challenge offered to any passkey of this relying party, and the
/// assertion made for it checked and recorded.
package struct PasskeyLoginOperations {
    package let services: Services

    /// A new login challenge with no `allowCredentials`, so the device offers whichever passkey of
    /// this RP it holds; expired challenges are removed on the way.
    package func loginOptions(caller: Caller) async throws -> PasskeyRequestOptions {
        let ceremonies = services.passkeys
        let now = caller.now
        let (challenge, record) = ceremonies.newChallenge(.login, userID: nil, now: now)
        try await services.store.write { tx in
            try tx.deleteWebAuthnChallenges(expiredBefore: now)
            try tx.insertWebAuthnChallenge(record)
        }
        return PasskeyRequestOptions(
            challenge: challenge, timeout: Int(PasskeyCeremonies.challengeLifetime * 1000), rpId: ceremonies.party.id)
    }

    /// What a verified assertion came to in the transaction that records it.
    private enum Recorded: Sendable {
        case signedIn(UserRecord, SessionRecord, RefreshToken)
        /// Another login with the same counter value was recorded first, or the account went.
        case refused(PasskeyRefusal)
    }

    /// Signs in with `credential`, the assertion `get()` made for a login challenge. A passkey
    /// checks possession and the user's verification, so it satisfies the second factor: the
    /// session's `amr` is `["swk" or "hwk", "user", "mfa"]`. A challenge unknown or expired is
    /// thrown (`challenge_invalid`, `challenge_expired`); an assertion that fails a check is
    /// logged (`passkey_refused`) and thrown as `passkey_login_failed`.
    package func logIn(_ credential: PasskeyAssertionCredential, caller: Caller) async throws -> TokenPair {
        try await services.events.signIn(.passkey, caller) { try await checkedLogIn(credential, caller: caller) }
    }

    private func checkedLogIn(_ credential: PasskeyAssertionCredential, caller: Caller) async throws -> TokenPair {
        let (ceremonies, sessions) = (services.passkeys, services.sessions)
        let (now, userAgent, origin) = (caller.now, caller.userAgent, caller.origin)
        // The passkey the response names, once known.
        var named: PasskeyRecord?
        do {
            let assertion = try PasskeyAssertion(credential)
            let hash = Digest.sha256(assertion.clientData.challenge)
            switch try await services.store.write({ try ceremonies.take(hash, .login, userID: nil, now: now, in: $0) }) {
            case .unknown: throw APIError.challengeInvalid
            case .expired: throw APIError.challengeExpired
            case .taken: break
            }
            let rawID = assertion.rawID
            guard let passkey = try await services.store.read({ try $0.passkey(credentialID: rawID) }) else {
                throw PasskeyRefusal.unknownCredential
            }
            named = passkey
            let verified = try assertion.verify(against: passkey, party: ceremonies.party)

            let amr = PasskeyCeremonies.authenticationMethods(backupEligible: passkey.backupEligible)
            let recorded = try await services.events.write { tx, ledger -> Recorded in
                // The account, then the passkey, locked and read again (the order an account's deletion
                // takes them in): a session only for an account that still exists, and of two logins
                // with one counter value, the second sees the first.
                guard let user = try tx.lockUser(id: passkey.userID) else { return .refused(.unknownCredential) }
                if let refusal = try PasskeyAssertion.recordUse(of: passkey, verified, userID: user.id, now: now, in: tx) { return .refused(refusal) }
                let (session, refresh) = try sessions.openSession(for: user, userAgent: userAgent, origin: origin, amr: amr, now: now, in: tx)
                try ledger.record(caller.event(
                    .signedIn(.passkey, SignInMethod(amr: amr)), userID: user.id,
                    ["via": "passkey", "passkey_id": passkey.id.lowercasedText, "amr": amr.joined(separator: " ")]))
                return .signedIn(user, session, refresh)
            }
            switch recorded {
            case .refused(let refusal): throw refusal
            case .signedIn(let user, let session, let refresh):
                return try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now)
            }
        } catch let refusal as PasskeyRefusal {
            // Logged under the account of the passkey the assertion names, once known.
            PasskeyAssertion.record(refusal, caller, passkey: named, via: "passkey_login", to: services.events)
            throw APIError.passkeyLoginFailed
        }
    }
}
