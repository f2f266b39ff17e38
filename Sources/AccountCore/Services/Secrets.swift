import AccountStore
import Sodium

/// Server-wide secret keys, made on first start and kept in the database (shared by all servers),
/// sealed there when the server has a `--secret-key-file`.
///
/// Every value in `settings` is a secret and goes through ``load(from:seal:)``; a new one is one
/// more line there.
package struct Secrets: Sendable {
    /// Keys the HMAC of one-time codes, so a copy of the database does not give the codes away.
    package let codeKey: [UInt8]
    /// Derive the successor of a refresh token (so a repeat within the grace window can be
    /// answered with the same new token without ever storing a token in clear), tag tokens, and
    /// key the hash the store keeps; all from the one stored secret ``refreshKey``.
    package let refreshKeys: RefreshTokenKeys
    package var refreshKey: [UInt8] { refreshKeys.derivation }
    /// Keys the fingerprint of the client that used a refresh token (its User-Agent and address),
    /// so the database holds neither in clear.
    package let clientKey: [UInt8]
    /// Seals authenticator secrets in the database (a key per account derived from it), so the
    /// database alone does not give them away; itself sealed by the secret key file when given.
    package let totpKey: [UInt8]
    /// Keys the HMAC of recovery codes, which the database keeps only as those hashes.
    package let recoveryCodeKey: [UInt8]
    /// Keys the `signup_token` of a details-first sign-up (bound to its address and password
    /// hash), so only the device that made a pending sign-up can sign in by verifying its code.
    package let signUpKey: [UInt8]
    /// Seals Apple refresh tokens (Sign in with Apple) in the database, a key per Apple user derived from it.
    package let appleTokenKey: [UInt8]
    /// How secrets are kept in the database (signing seeds too).
    package let seal: SecretSeal

    /// Checks `seal` against the database (sealing a clear database's secrets and waiting mail when
    /// a key is newly given, in the same transaction) and loads the secrets, making those that are
    /// missing.
    /// - Throws: ``SecretsError`` when the database was sealed with another key, or with one and
    ///   none is given.
    package static func load(from store: any AccountStore, seal: SecretSeal, random: Randomness) async throws -> Secrets {
        let (secrets, adoption) = try await store.write { tx in
            let adoption = try seal.adopt(in: tx)
            func secret(_ name: String) throws -> [UInt8] {
                let context = SecretSeal.context(setting: name)
                return try seal.open(tx.insertSettingIfAbsent(name, value: seal.seal(random.bytes(32), context: context)), context: context)
            }
            let secrets = Secrets(
                codeKey: try secret("code_hmac_key"),
                refreshKeys: RefreshTokenKeys(derivation: try secret("refresh_derivation_key")),
                clientKey: try secret("client_binding_key"),
                totpKey: try secret("totp_secret_key"),
                recoveryCodeKey: try secret("recovery_code_hmac_key"),
                signUpKey: try secret("signup_binding_key"),
                appleTokenKey: try secret("apple_token_key"),
                seal: seal)
            return (secrets, adoption)
        }
        // A new database is sealed from its first secret on: nothing to say then.
        if case .sealedNow(let settings, let signingKeys, let mail) = adoption, settings + signingKeys + mail > 0 {
            Log.notice("secrets_sealed", level: "notice", [
                "key": seal.fingerprint ?? "", "settings": String(settings), "signing_keys": String(signingKeys), "mail": String(mail),
                "detail": "the database's secrets and waiting mail were in clear and are now sealed with the secret key file",
            ])
        }
        return secrets
    }
}
