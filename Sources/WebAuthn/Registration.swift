import Sodium

/// A new credential that passed WebAuthn §7.1, what a server stores for it.
public struct VerifiedRegistration: Sendable {
    public let credentialID: [UInt8]
    public let publicKey: CredentialPublicKey
    public let signCount: UInt32
    /// BE at registration: the credential may be synced (a passkey); it may not change later.
    public let backupEligible: Bool
    /// BS at registration: it is backed up now.
    public let backedUp: Bool
    /// The authenticator's model as it says (zeros when it does not), never trusted.
    public let aaguid: [UInt8]
    /// `none` or `packed` (self-attestation, verified but not trusted).
    public let attestationFormat: String
}

extension RelyingParty {
    /// WebAuthn §7.1, "Registering a New Credential", for a response to options this server made.
    ///
    /// - Parameters:
    ///   - clientDataJSON: the response's `clientDataJSON`, decoded from base64url.
    ///   - attestationObject: its `attestationObject`, decoded.
    ///   - rawID: the credential's `rawId`, decoded; it must be the id in the authenticator data.
    ///   - expectedChallenge: the challenge the server issued (and spends) for this registration.
    /// - Throws: the ``WebAuthnError`` of the first step that fails. What is left to the caller:
    ///   the challenge's single use and lifetime, and that no account holds the credential id yet.
    public func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], rawID: [UInt8], expectedChallenge: [UInt8]
    ) throws(WebAuthnError) -> VerifiedRegistration {
        let clientData = try CollectedClientData(json: clientDataJSON)
        try check(clientData, type: "webauthn.create", expectedChallenge: expectedChallenge)
        let attestation = try AttestationObject(attestationObject)
        let data = attestation.authenticatorData
        try check(data)
        guard let credential = data.attestedCredential else { throw .credentialDataMissing }
        guard constantTimeEquals(credential.id, rawID) else { throw .credentialIDMismatch }
        try attestation.verify(clientDataHash: Digest.sha256(clientDataJSON), credentialKey: credential.publicKey)
        return VerifiedRegistration(
            credentialID: credential.id, publicKey: credential.publicKey, signCount: data.signCount,
            backupEligible: data.flags.contains(.backupEligible), backedUp: data.flags.contains(.backedUp),
            aaguid: credential.aaguid, attestationFormat: attestation.format)
    }
}
