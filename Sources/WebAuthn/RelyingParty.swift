import Sodium

/// The relying party a server is: its RP id (a registrable domain, `--webauthn-rp-id`) and the
/// origins it accepts ceremonies from (`--webauthn-origin`), checked by both verifications.
public struct RelyingParty: Sendable {
    /// The RP id, such as `example.com`.
    public let id: String
    /// SHA-256 of the RP id, as authenticator data carries it.
    public let idHash: [UInt8]
    /// Origins accepted exactly as a browser writes them (`https://example.com`, no trailing slash),
    /// or an app's (`android:apk-key-hash:…`).
    public let origins: Set<String>

    public init(id: String, origins: some Sequence<String>) {
        self.id = id
        self.idHash = Digest.sha256(Array(id.utf8))
        self.origins = Set(origins)
    }

    /// §7.1 steps 7–10, §7.2 steps 11–14: the client data's type, challenge and origin, and no
    /// cross-origin frame. `expectedChallenge` is the challenge the server issued.
    func check(_ clientData: CollectedClientData, type: String, expectedChallenge: [UInt8]) throws(WebAuthnError) {
        guard clientData.type == type else { throw .wrongType }
        guard constantTimeEquals(clientData.challenge, expectedChallenge) else { throw .challengeMismatch }
        guard origins.contains(clientData.origin) else { throw .originNotAllowed }
        guard clientData.crossOrigin != true else { throw .crossOrigin }
    }

    /// §7.1 steps 14–17, §7.2 steps 15–18: `rpIdHash`, user presence and verification, and the
    /// backup flags' one rule (no backup state without eligibility).
    func check(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard constantTimeEquals(data.rpIDHash, idHash) else { throw .rpIDMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        guard data.flags.contains(.userVerified) else { throw .userNotVerified }
        guard data.flags.contains(.backupEligible) || !data.flags.contains(.backedUp) else { throw .backupFlagsInvalid }
    }
}
