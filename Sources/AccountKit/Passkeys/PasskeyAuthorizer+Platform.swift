#if canImport(AuthenticationServices)
import AccountAPI
import AuthenticationServices

extension PasskeyAuthorizer {
    /// The device's passkeys through AuthenticationServices: iCloud Keychain, Face ID or Touch ID
    /// (or a passkey on a phone nearby, or a security key, as the system offers).
    ///
    /// The app needs the Associated Domains entitlement `webcredentials:<RP id>` (the server's
    /// `--webauthn-rp-id`), and the server's `/.well-known/apple-app-site-association` must list
    /// the app (`--apple-app-id TEAMID.bundle.id`); see `Examples/PlaygroundApp/README.md`.
    public static func platform(_ authorization: PlatformAuthorization = .controller()) -> PasskeyAuthorizer {
        PasskeyAuthorizer(
            register: { options in try await PlatformPasskeys.register(options, authorization) },
            assert: { options in try await PlatformPasskeys.assert(options, authorization) })
    }
}

/// The two ceremonies in AuthenticationServices' types; the bytes come from, and go to, the
/// shared conversions (``PasskeyCreationOptions/ceremony()``).
@MainActor private enum PlatformPasskeys {
    static func register(_ options: PasskeyCreationOptions, _ authorization: PlatformAuthorization) async throws -> PasskeyRegistrationCredential {
        let ceremony = try options.ceremony()
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: ceremony.relyingPartyID)
        let request = provider.createCredentialRegistrationRequest(challenge: ceremony.challenge, name: ceremony.userName, userID: ceremony.userID)
        request.userVerificationPreference = .required
        let credential = try await authorization.perform(request)
        guard let made = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
            let attestationObject = made.rawAttestationObject
        else { throw AuthorizationError.incompleteResponse("no attestation object") }
        return PasskeyRegistrationCredential(
            credentialID: made.credentialID, clientDataJSON: made.rawClientDataJSON, attestationObject: attestationObject,
            transports: ["hybrid", "internal"])
    }

    static func assert(_ options: PasskeyRequestOptions, _ authorization: PlatformAuthorization) async throws -> PasskeyAssertionCredential {
        let ceremony = try options.ceremony()
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: ceremony.relyingPartyID)
        let request = provider.createCredentialAssertionRequest(challenge: ceremony.challenge)
        request.userVerificationPreference = .required
        if !ceremony.allowedCredentialIDs.isEmpty {
            request.allowedCredentials = ceremony.allowedCredentialIDs.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
        }
        let credential = try await authorization.perform(request)
        guard let signed = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
            throw AuthorizationError.incompleteResponse("no passkey assertion")
        }
        return PasskeyAssertionCredential(
            credentialID: signed.credentialID, clientDataJSON: signed.rawClientDataJSON, authenticatorData: signed.rawAuthenticatorData,
            signature: signed.signature, userHandle: signed.userID)
    }
}
#endif
