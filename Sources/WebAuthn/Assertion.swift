import Sodium

/// What a server knows of a stored credential when it checks an assertion.
public struct StoredCredential: Sendable {
    public let publicKey: CredentialPublicKey
    public let signCount: UInt32
    public let backupEligible: Bool

    public init(publicKey: CredentialPublicKey, signCount: UInt32, backupEligible: Bool) {
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// An assertion that passed WebAuthn §7.2: what the server updates on the credential.
public struct VerifiedAssertion: Sendable {
    /// The counter to store (the authenticator's; 0 when it keeps none).
    public let signCount: UInt32
    /// BS now: a passkey may become backed up after registration.
    public let backedUp: Bool
}

extension RelyingParty {
    /// WebAuthn §7.2, "Verifying an Authentication Assertion", against the stored credential the
    /// response's id names.
    ///
    /// - Parameters:
    ///   - clientDataJSON, authenticatorData, signature: the response's, decoded from base64url.
    ///   - expectedChallenge: the challenge the server issued (and spends) for this login.
    ///   - credential: the stored credential whose id the response's `rawId` is.
    /// - Throws: the ``WebAuthnError`` of the first step that fails; ``WebAuthnError/signCountWentBack``
    ///   only after the signature verified, so it is the authenticator's own counter that went back.
    ///   Left to the caller: the challenge's single use and lifetime, and that a `userHandle`, when
    ///   sent, is the credential owner's.
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], expectedChallenge: [UInt8], credential: StoredCredential
    ) throws(WebAuthnError) -> VerifiedAssertion {
        let clientData = try CollectedClientData(json: clientDataJSON)
        try check(clientData, type: "webauthn.get", expectedChallenge: expectedChallenge)
        let data = try AuthenticatorData(authenticatorData)
        guard data.attestedCredential == nil else { throw .credentialDataMissing }
        try check(data)
        guard data.flags.contains(.backupEligible) == credential.backupEligible else { throw .backupFlagsInvalid }
        guard credential.publicKey.verify(signature: signature, message: authenticatorData + Digest.sha256(clientDataJSON)) else {
            throw .signatureInvalid
        }
        // §7.2 step 22: when either counter is non-zero, the new one must be greater.
        if data.signCount != 0 || credential.signCount != 0, data.signCount <= credential.signCount {
            throw .signCountWentBack
        }
        return VerifiedAssertion(signCount: data.signCount, backedUp: data.flags.contains(.backedUp))
    }
}
