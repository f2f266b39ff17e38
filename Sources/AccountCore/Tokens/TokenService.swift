import AccountAPI
import Foundation
import Sodium

/// Signs and verifies access tokens: JWTs with `alg` `EdDSA`, `typ` `at+jwt` (RFC 9068).
///
/// Only our algorithm and our keys are accepted; `iss`, `aud`, `exp` and `nbf` are checked with
/// ``clockSkew`` of tolerance; a refused token throws a ``TokenError`` that says why. Whether the
/// session is still live is the caller's second check.
package struct TokenService: Sendable {
    /// Seconds of clock difference tolerated on `exp` and `nbf`.
    package static let clockSkew: TimeInterval = 60

    package let keys: KeyRing
    package let cache = VerifiedTokenCache()
    package let issuer: String
    package let audience: String
    package let accessTTL: Int

    /// A verified token's subject and session.
    package struct Verified: Sendable {
        package let userID: UUID
        package let sessionID: UUID
    }

    /// Signs an access token for `userID` in `sessionID`, issued at `issuedAt`, naming how the
    /// session was authenticated (`amr`).
    ///
    /// `jti` is given by the caller so that a refresh repeated within the grace window can hand out
    /// the very same token again (Ed25519 signatures are deterministic).
    package func sign(userID: UUID, sessionID: UUID, issuedAt: Date, jti: String, amr: [String]) async throws -> String {
        let snapshot = try await keys.current(now: issuedAt)
        let iat = Int(issuedAt.timeIntervalSince1970)
        let header = AccessTokenHeader(alg: "EdDSA", typ: "at+jwt", kid: snapshot.signing.kid)
        let claims = AccessClaims(
            amr: amr, iss: issuer, aud: audience, sub: userID.lowercasedText, sid: sessionID.lowercasedText,
            iat: iat, exp: iat + accessTTL, nbf: nil, jti: jti)
        let signingInput = Base64URL.encode(WireJSON.header(header)) + "." + Base64URL.encode(WireJSON.claims(claims))
        let signature = snapshot.signing.key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Checks signature and claims (or finds them checked before).
    /// - Throws: ``TokenError`` saying which check failed.
    package func verify(_ token: String, now: Date) async throws -> Verified {
        let key = VerifiedTokenCache.key(token)
        if let verified = cache.lookup(key, now: now) { return verified }
        let (verified, exp) = try await verifySignatureAndClaims(token, now: now)
        cache.store(key, verified, validUntil: Date(timeIntervalSince1970: exp + Self.clockSkew), now: now)
        return verified
    }

    /// What an earlier ``verify(_:now:)`` of this exact token found, if it is still valid; never
    /// verifies a signature or waits.
    package func alreadyVerified(_ token: String, now: Date) -> Verified? {
        cache.lookup(VerifiedTokenCache.key(token), now: now)
    }

    /// The header parameters a token of ours has, and so all we accept: no `crit` (we understand
    /// no extension, RFC 7515 §4.1.11), no `jku`, `jwk`, `x5u` or anything else that would ask
    /// us to trust more than our own keys.
    package static let headerParameters: [[UInt8]] = [Array("alg".utf8), Array("typ".utf8), Array("kid".utf8)]

    private func verifySignatureAndClaims(_ token: String, now: Date) async throws -> (Verified, TimeInterval) {
        // Strict before anything is trusted: unpadded canonical base64url (Base64URL.decode), JSON
        // objects without repeated names, and only our header parameters.
        guard token.utf8.count <= 4096 else { throw TokenError.malformed(.tooLong) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw TokenError.malformed(.parts) }
        guard let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw TokenError.malformed(.encoding) }
        guard signature.count == 64 else { throw TokenError.malformed(.signatureLength) }
        guard let headerNames = JOSEJSON.memberNames(headerBytes), JOSEJSON.memberNames(claimBytes) != nil else {
            throw TokenError.malformed(.json)
        }
        guard headerNames.allSatisfy({ name in Self.headerParameters.contains { $0.elementsEqual(name) } }) else {
            throw TokenError.malformed(.headerParameter)
        }
        guard let header = try? JSONCoding.decoder.decode(AccessTokenHeader.self, from: Data(headerBytes)) else {
            throw TokenError.malformed(.header)
        }
        guard header.alg == "EdDSA" else { throw TokenError.malformed(.algorithm) }
        guard header.typ.lowercased() == "at+jwt" else { throw TokenError.malformed(.type) }
        guard let publicKey = try await keys.verifyingKey(kid: header.kid, now: now) else { throw TokenError.unknownKey }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard Ed25519.verify(signature: signature, message: signingInput, publicKey: publicKey) else { throw TokenError.badSignature }
        guard let claims = try? JSONCoding.decoder.decode(IncomingClaims.self, from: Data(claimBytes)) else {
            throw TokenError.malformed(.claims)
        }
        let seconds = now.timeIntervalSince1970
        guard claims.iss == issuer else { throw TokenError.invalidClaim("iss", "not this server's issuer") }
        guard claims.aud?.names.contains(audience) == true else { throw TokenError.invalidClaim("aud", "not this server's audience") }
        guard let sub = claims.sub.flatMap(UUID.init(uuidString:)) else { throw TokenError.invalidClaim("sub", "missing or not a UUID") }
        guard let sid = claims.sid.flatMap(UUID.init(uuidString:)) else { throw TokenError.invalidClaim("sid", "missing or not a UUID") }
        guard let exp = claims.exp else { throw TokenError.invalidClaim("exp", "missing") }
        if let nbf = claims.nbf, nbf > seconds + Self.clockSkew { throw TokenError.invalidClaim("nbf", "in the future") }
        guard exp > seconds - Self.clockSkew else { throw TokenError.expired }
        return (Verified(userID: sub, sessionID: sid), exp)
    }
}
