import AccountAPI
import AccountStore
import Foundation
import Sodium

/// What a verified Apple identity token says.
package struct AppleIdentity: Sendable, Equatable {
    /// Apple's stable user id for this team (`sub`).
    package let subject: String
    /// The address Apple gave (a private relay address included).
    package let email: String
    /// The client id (`aud`) the token was issued to: one of `--apple-client-id`.
    package let clientID: String
    package let issuedAt: Date
    /// The token's record once it is accepted (``AppleSignIn/spend(_:in:)``): the SHA-256 of what
    /// Apple signed, until the token stops being accepted.
    package let use: UsedAppleTokenRecord
}

/// Checks Apple identity tokens: RS256 under a key of Apple's JWKS, `iss`, `aud` among the
/// configured client ids, `exp` and `iat` with ``skew`` (and `exp` at most ``maximumLifetime``
/// ahead), the nonce (SHA-256 hex of the raw nonce the app sent) and a verified address. That a
/// token is accepted once is the store's to say (``AppleSignIn/spend(_:in:)``).
package struct AppleIdentityVerifier: Sendable {
    package static let issuer = "https://appleid.apple.com"
    /// Clock difference tolerated between Apple and this server.
    package static let skew: TimeInterval = 60
    /// The longest raw nonce and subject accepted.
    package static let maximumNonceLength = 256
    package static let maximumSubjectLength = 255
    /// The longest a token may still be valid for (its `exp` ahead of now), so the record of an
    /// accepted token is kept a bounded time. Apple's are valid for minutes.
    package static let maximumLifetime: TimeInterval = 86_400

    package let keys: AppleKeySet
    package let clientIDs: Set<String>

    /// What checking a token came to.
    package enum Outcome: Sendable {
        case verified(AppleIdentity)
        case refused(AppleTokenRefusal)
        /// Apple's keys could not be had at all (network, Apple down): no fault of the token.
        case keysUnavailable
    }

    /// Checks `token` for `nonce` at `now`; `maximumAge`, when given, also bounds how long ago it
    /// was issued (a proof for a sensitive change must be fresh).
    ///
    /// Every check that needs nothing from Apple comes first: the form, the claims (issuer,
    /// audience, expiry, issue time, nonce, address), then `alreadyUsed` (the store's record of
    /// accepted tokens), and only then the key, which may be fetched from Apple; so a replayed or
    /// a wrong token never makes the server call out.
    package func verify(
        _ token: String, nonce: String, now: Date, maximumAge: TimeInterval? = nil,
        alreadyUsed: (UsedAppleTokenRecord) async throws -> Bool = { _ in false }
    ) async rethrows -> Outcome {
        let parsed: AppleIdentityToken
        do throws(AppleTokenRefusal) { parsed = try AppleIdentityToken(token) } catch { return .refused(error) }
        guard parsed.header.alg == "RS256" else { return .refused(.algorithm) }
        guard parsed.header.kid.utf8.count <= 128 else { return .refused(.malformed) }
        let identity: AppleIdentity
        do throws(AppleTokenRefusal) {
            identity = try check(parsed.claims, signedPart: parsed.signedPart, nonce: nonce, now: now, maximumAge: maximumAge)
        } catch {
            return .refused(error)
        }
        guard try await !alreadyUsed(identity.use) else { return .refused(.replayed) }
        switch await keys.key(id: parsed.header.kid, now: now) {
        case .unavailable: return .keysUnavailable
        case .unknown: return .refused(.unknownKey)
        case .key(let key):
            guard key.verify(signature: parsed.signature, message: parsed.signedPart) else { return .refused(.signature) }
        }
        return .verified(identity)
    }

    /// The claims' checks; the token is Apple's only once the signature over `signedPart` (the
    /// token's `header.payload`) is checked too.
    ///
    /// What identifies the token for its single use is `signedPart`: Apple's signature fixes every
    /// byte of it (claims, nonce hash and `iat` included), so whoever replays a token can vary
    /// nothing there; the signature is left out, as no part of what Apple vouched for (its text
    /// has one accepted encoding today, but the record need not depend on that), and the raw
    /// nonce has only the one value that hashes to the signed `nonce`.
    package func check(
        _ claims: AppleIdentityToken.Claims, signedPart: [UInt8], nonce: String, now: Date, maximumAge: TimeInterval?
    ) throws(AppleTokenRefusal) -> AppleIdentity {
        guard claims.iss == Self.issuer else { throw .issuer }
        guard let clientID = claims.aud.values.first(where: { clientIDs.contains($0) }) else { throw .audience }
        let seconds = now.timeIntervalSince1970
        guard claims.exp.isFinite, claims.exp + Self.skew > seconds else { throw .expired }
        guard claims.exp <= seconds + Self.maximumLifetime + Self.skew else { throw .lifetime }
        guard claims.iat.isFinite, claims.iat <= seconds + Self.skew, claims.iat <= claims.exp else { throw .issuedAt }
        if let maximumAge, claims.iat + maximumAge + Self.skew < seconds { throw .issuedAt }
        // The app sends the raw nonce; Apple signed its SHA-256 in lower-case hex.
        let expected = Hex.encode(Digest.sha256(Array(nonce.utf8)))
        guard !nonce.isEmpty, let signed = claims.nonce, signed.lowercased() == expected else { throw .nonce }
        guard claims.emailVerified?.value == true, let email = claims.email, !email.isEmpty, email.utf8.count <= 320 else {
            throw .emailNotVerified
        }
        guard !claims.sub.isEmpty, claims.sub.utf8.count <= Self.maximumSubjectLength else { throw .malformed }
        let use = UsedAppleTokenRecord(
            hash: Digest.sha256(Array("apple-identity-token:".utf8) + signedPart),
            expiresAt: Date(timeIntervalSince1970: claims.exp + Self.skew))
        return AppleIdentity(
            subject: claims.sub, email: email, clientID: clientID, issuedAt: Date(timeIntervalSince1970: claims.iat), use: use)
    }
}
