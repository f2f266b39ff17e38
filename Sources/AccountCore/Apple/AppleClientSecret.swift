import AccountAPI
import Foundation
import LibCrypto

/// The `client_secret` Apple's token and revoke endpoints take: an ES256 JWT signed with the
/// team's Sign in with Apple key (`--apple-key-file`, `--apple-key-id`, `--apple-team-id`), made
/// fresh for each call and valid five minutes.
package struct AppleClientSecret: Sendable {
    package static let lifetime: TimeInterval = 300

    package let key: P256SigningKey
    package let keyID: String
    package let teamID: String

    /// Reads the `.p8` key file.
    /// - Throws: ``AppleConfigurationError`` when the file cannot be read or holds no P-256 key.
    package init(keyFile: String, keyID: String, teamID: String) throws {
        guard let text = try? String(contentsOfFile: keyFile, encoding: .utf8) else {
            throw AppleConfigurationError(description: "--apple-key-file \(keyFile) cannot be read")
        }
        do {
            key = try P256SigningKey(pkcs8PEM: text)
        } catch {
            throw AppleConfigurationError(description: "--apple-key-file \(keyFile): \(error)")
        }
        self.keyID = keyID
        self.teamID = teamID
    }

    /// A secret for `clientID` issued at `now`.
    package func make(clientID: String, now: Date) -> String {
        var header = JSONObjectWriter(capacity: 48)
        header.string("alg", "ES256")
        header.string("kid", keyID)
        let issued = Int(now.timeIntervalSince1970)
        var claims = JSONObjectWriter(capacity: 160)
        claims.string("aud", AppleIdentityVerifier.issuer)
        claims.int("exp", issued + Int(Self.lifetime))
        claims.int("iat", issued)
        claims.string("iss", teamID)
        claims.string("sub", clientID)
        let signed = Base64URL.encode(header.finish()) + "." + Base64URL.encode(claims.finish())
        return signed + "." + Base64URL.encode(key.signJOSE(Array(signed.utf8)))
    }
}

/// A Sign in with Apple option the server cannot start with.
package struct AppleConfigurationError: Error, CustomStringConvertible {
    package let description: String
}
