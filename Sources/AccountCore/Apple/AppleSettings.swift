/// What Sign in with Apple needs of the server's options (`--apple-...`): the app's client IDs,
/// Apple's endpoints, and the key that signs the client secret.
package struct AppleSettings: Sendable {
    /// The audiences an identity token may name; none turns Sign in with Apple off.
    package var clientIDs: [String]
    package var jwksURL: String
    package var tokenURL: String
    package var revokeURL: String
    /// Apple's `.p8` key, its id and the team: all three, or none (no code exchanged, no grant revoked).
    package var keyFile: String?
    package var keyID: String?
    package var teamID: String?
}

extension ServerConfiguration {
    /// The Apple options.
    package var apple: AppleSettings {
        AppleSettings(
            clientIDs: appleClientIDs, jwksURL: appleJWKSURL, tokenURL: appleTokenURL, revokeURL: appleRevokeURL,
            keyFile: appleKeyFile, keyID: appleKeyID, teamID: appleTeamID)
    }
}
