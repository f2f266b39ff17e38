import AccountAPI
import AccountStore
import Foundation
import Sodium
import WebFetch

/// Sign in with Apple, as the routes use it: identity tokens checked (``AppleIdentityVerifier``),
/// continuations of new Apple users, and Apple's grants kept and revoked (``AppleGrants``).
package struct AppleSignIn: Sendable {
    /// Seconds a `profile_required` continuation token is valid.
    package static let continuationLifetime: TimeInterval = 600
    /// How long ago an identity token proving a sensitive change may have been issued.
    package static let proofMaximumAge: TimeInterval = 600

    /// `nil` without `--apple-client-id`: `/auth/apple…` answer `404 apple_not_configured`.
    package let verifier: AppleIdentityVerifier?
    package let grants: AppleGrants
    package let fetcher: WebFetcher
    /// Where accepted tokens are recorded: a replay is refused before Apple is asked anything.
    package let store: any AccountStore
    /// Where a refused token is recorded.
    package let events: DomainEvents

    /// - Throws: ``AppleConfigurationError`` when `--apple-key-file` cannot be read as a P-256 key.
    package init(settings: AppleSettings, secrets: Secrets, clock: ServerClock, random: Randomness, store: any AccountStore, events: DomainEvents) throws {
        self.store = store
        self.events = events
        fetcher = WebFetcher(threads: 2, queueLimit: 64)
        verifier = settings.clientIDs.isEmpty
            ? nil
            : AppleIdentityVerifier(keys: AppleKeySet(url: settings.jwksURL, fetcher: fetcher), clientIDs: Set(settings.clientIDs))
        var secret: AppleClientSecret?
        if let file = settings.keyFile, let keyID = settings.keyID, let teamID = settings.teamID {
            secret = try AppleClientSecret(keyFile: file, keyID: keyID, teamID: teamID)
        }
        grants = AppleGrants(
            fetcher: fetcher, tokenURL: settings.tokenURL, revokeURL: settings.revokeURL, secret: secret,
            sealKey: try SecretBoxKey(bytes: secrets.appleTokenKey), clock: clock, random: random)
    }

    /// The verifier, or `404 apple_not_configured`.
    package func enabled() throws -> AppleIdentityVerifier {
        guard let verifier else { throw APIError.appleNotConfigured }
        return verifier
    }

    /// The identity `token` proves for `nonce`, or the refusal: logged as `apple_token_refused`
    /// with the failed check (never the token; a replay is refused before Apple is asked for its keys), answered `apple_token_invalid` (`status`: 401, or
    /// 403 where it proves a sensitive change); `503` when Apple's keys cannot be had at all.
    package func identity(
        _ token: String, nonce: String, _ caller: Caller, userID: UUID?, via: String,
        maximumAge: TimeInterval? = nil, status: Int = 401
    ) async throws -> AppleIdentity {
        let verifier = try enabled()
        let store = self.store
        let outcome = try await verifier.verify(token, nonce: nonce, now: caller.now, maximumAge: maximumAge) { use in
            try await store.read { try $0.appleTokenUsed(use) }
        }
        switch outcome {
        case .verified(let identity):
            return identity
        case .refused(let refusal):
            throw refuse(refusal, caller, userID: userID, via: via, status: status)
        case .keysUnavailable:
            events.record(caller.event(.logged(.appleTokenRefused), userID: userID, ["via": via, "reason": "keys_unavailable"]))
            throw APIError.serviceUnavailable(retryAfter: 5)
        }
    }

    /// Records `refusal` (`apple_token_refused` naming the check), and returns the reply, which
    /// names none: `apple_token_invalid` with `status`.
    package func refuse(_ refusal: AppleTokenRefusal, _ caller: Caller, userID: UUID?, via: String, status: Int = 401) -> APIError {
        events.record(caller.event(.logged(.appleTokenRefused), userID: userID, ["via": via, "reason": refusal.reason]))
        return APIError(status, .appleTokenInvalid)
    }

    /// Spends `identity`'s token in `tx`, the transaction of what the token allows (a session, a
    /// second-factor challenge, a continuation, a link, a sensitive change), so that it commits
    /// with it or not at all; `false` when the token was accepted before (a replay: the caller
    /// refuses it with ``refuse(_:_:userID:via:status:)`` and `.replayed`).
    package static func spend(_ identity: AppleIdentity, in tx: any StoreTransaction) throws -> Bool {
        try tx.insertUsedAppleToken(identity.use)
    }

    /// Stops the threads of requests to Apple.
    package func stop() { fetcher.stop() }
}

extension APIError {
    package static let appleNotConfigured = APIError(404, .appleNotConfigured)
    package static let appleTokenInvalid = APIError(401, .appleTokenInvalid)
    package static let appleLinkRequired = APIError(409, .appleLinkRequired)
    package static let appleAlreadyLinked = APIError(409, .appleAlreadyLinked)
    package static let lastSignInMethod = APIError(409, .lastSignInMethod)
    package static func profileRequired(_ profile: AppleProfileRequired) -> APIError { APIError(403, .profileRequired, appleProfile: profile) }
}
