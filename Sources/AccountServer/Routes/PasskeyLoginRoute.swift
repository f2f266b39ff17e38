import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium
import WebAuthn

extension PasskeyRoutes {
    /// `POST /auth/passkeys/login/options`: `PublicKeyCredentialRequestOptionsJSON` with a new
    /// challenge and no `allowCredentials`, so the device offers whichever passkey of this RP it holds.
    func loginOptions(_ context: RequestContext) async throws -> HTTPResponse {
        let ceremonies = services.passkeys
        let now = context.now
        let (challenge, record) = ceremonies.newChallenge(.login, userID: nil, now: now)
        try await services.store.write { tx in
            try tx.deleteWebAuthnChallenges(expiredBefore: now)
            try tx.insertWebAuthnChallenge(record)
        }
        return try .json(PasskeyRequestOptions(
            challenge: challenge, timeout: Int(PasskeyCeremonies.challengeLifetime * 1000), rpId: ceremonies.party.id))
    }

    /// What a verified assertion came to in the transaction that records it.
    private enum Recorded: Sendable {
        case signedIn(UserRecord, SessionRecord, RefreshToken)
        /// Another login with the same counter value was recorded first, or the account went.
        case refused(PasskeyRefusal)
    }

    /// `POST /auth/passkeys/login`: the assertion `get()` made for the options' challenge; `200`
    /// with the token pair and user, as a login. A passkey checks possession and the user's
    /// verification, so it satisfies the second factor: the session's `amr` is `["swk" or "hwk",
    /// "user", "mfa"]`.
    func logIn(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(PasskeyLoginRequest.self)
        guard let credential = body.credential else { throw APIError.validation("credential", .required) }
        let (ceremonies, sessions) = (services.passkeys, services.sessions)
        let (now, userAgent, origin) = (context.now, context.request.headers["User-Agent"], context.origin)
        // The passkey the response names, once known: whose account a refusal is logged under.
        var named: PasskeyRecord?
        do {
            let rawID = try PasskeyCeremonies.bytes(credential.rawId, limit: AuthenticatorData.maximumCredentialIDLength)
            guard credential.type == "public-key", credential.id == credential.rawId else { throw PasskeyRefusal.malformed }
            let clientDataJSON = try PasskeyCeremonies.bytes(credential.response.clientDataJSON, limit: CollectedClientData.maximumSize)
            let authenticatorData = try PasskeyCeremonies.bytes(credential.response.authenticatorData, limit: 1024)
            let signature = try PasskeyCeremonies.bytes(credential.response.signature, limit: 1024)
            let userHandle = try credential.response.userHandle.map { try PasskeyCeremonies.bytes($0, limit: 64) }
            let clientData: CollectedClientData
            do throws(WebAuthnError) { clientData = try CollectedClientData(json: clientDataJSON) } catch { throw PasskeyRefusal.check(error) }
            let hash = Digest.sha256(clientData.challenge)
            switch try await services.store.write({ try ceremonies.take(hash, .login, userID: nil, now: now, in: $0) }) {
            case .unknown: throw APIError.challengeInvalid
            case .expired: throw APIError.challengeExpired
            case .taken: break
            }
            guard let passkey = try await services.store.read({ try $0.passkey(credentialID: rawID) }) else {
                throw PasskeyRefusal.unknownCredential
            }
            named = passkey
            if let userHandle, userHandle != PasskeyCeremonies.userHandle(passkey.userID) { throw PasskeyRefusal.wrongUser }
            let verified: VerifiedAssertion
            do throws(WebAuthnError) {
                verified = try ceremonies.party.verifyAssertion(
                    clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
                    expectedChallenge: clientData.challenge, credential: StoredCredential(
                        publicKey: try CredentialPublicKey(encoded: passkey.publicKey), signCount: UInt32(clamping: passkey.signCount),
                        backupEligible: passkey.backupEligible))
            } catch { throw PasskeyRefusal.check(error) }

            let amr = PasskeyCeremonies.authenticationMethods(backupEligible: passkey.backupEligible)
            let recorded = try await services.store.write { tx -> Recorded in
                // The account, then the passkey, locked and read again (the order an account's deletion
                // takes them in): a session only for an account that still exists, and of two logins
                // with one counter value, the second sees the first.
                guard let user = try tx.lockUser(id: passkey.userID), let current = try tx.passkey(credentialID: rawID),
                    current.id == passkey.id, current.userID == user.id
                else { return .refused(.unknownCredential) }
                let count = Int64(verified.signCount)
                if count != 0 || current.signCount != 0, count <= current.signCount { return .refused(.check(.signCountWentBack)) }
                try tx.recordPasskeyUse(id: current.id, signCount: count, backedUp: verified.backedUp, at: now)
                let (session, refresh) = try sessions.openSession(userID: user.id, userAgent: userAgent, origin: origin, amr: amr, now: now, in: tx)
                return .signedIn(user, session, refresh)
            }
            switch recorded {
            case .refused(let refusal): throw refusal
            case .signedIn(let user, let session, let refresh):
                context.audit(.loginSucceeded, userID: user.id, ["via": "passkey", "passkey_id": passkey.id.lowercasedText, "amr": amr.joined(separator: " ")])
                return .tokenPair(try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now))
            }
        } catch let refusal as PasskeyRefusal {
            let passkeyID = named?.id.lowercasedText ?? ""
            if case .check(.signCountWentBack) = refusal {
                context.audit(.passkeyCounterRegressed, userID: named?.userID, ["passkey_id": passkeyID])
            }
            context.audit(.passkeyRefused, userID: named?.userID, ["via": "passkey_login", "reason": refusal.reason, "passkey_id": passkeyID])
            throw APIError.passkeyLoginFailed
        }
    }
}
