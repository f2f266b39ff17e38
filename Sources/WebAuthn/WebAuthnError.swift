/// Which check of WebAuthn's §7.1 (registration) or §7.2 (authentication) a response failed.
///
/// Each case names a rule, never a value from the response, so it can go to a log as it is.
public enum WebAuthnError: Error, Sendable, Equatable {
    /// `clientDataJSON` is not a JSON object with `type`, `challenge` and `origin` as strings.
    case malformedClientData
    /// `type` is not `webauthn.create` (registration) or `webauthn.get` (authentication).
    case wrongType
    /// The challenge is not the one the server issued for this ceremony.
    case challengeMismatch
    /// The origin is not in the server's allow-list.
    case originNotAllowed
    /// The ceremony ran in a cross-origin frame.
    case crossOrigin
    /// Authenticator data too short, with bytes left over, or with a malformed credential part.
    case malformedAuthenticatorData
    /// `rpIdHash` is not SHA-256 of the server's RP id.
    case rpIDMismatch
    /// The user-present flag is not set.
    case userNotPresent
    /// The user-verified flag is not set (a passkey must check a biometric or PIN).
    case userNotVerified
    /// Backup state set without backup eligibility, or eligibility changed since registration.
    case backupFlagsInvalid
    /// A registration without attested credential data, or an assertion with it.
    case credentialDataMissing
    /// The credential id in the authenticator data is not the response's `rawId`, or is over 1023 bytes.
    case credentialIDMismatch
    /// The credential's COSE algorithm is not ES256, EdDSA or RS256.
    case unsupportedAlgorithm
    /// The COSE key is malformed (wrong key type or curve, sizes, a point off the curve, weak RSA).
    case malformedPublicKey
    /// The attestation object is not a CBOR map with `fmt`, `attStmt` and `authData`.
    case malformedAttestation
    /// An attestation format other than `none` or `packed` self-attestation.
    case unsupportedAttestation
    /// A `packed` self-attestation whose signature does not verify under the new credential's key.
    case attestationSignatureInvalid
    /// The assertion's signature does not verify under the stored public key.
    case signatureInvalid
    /// The signature counter did not increase although one side of it is non-zero: a possible
    /// cloned authenticator.
    case signCountWentBack

    /// The rule in snake case, for a log line (`origin_not_allowed`).
    public var rule: String {
        switch self {
        case .malformedClientData: "malformed_client_data"
        case .wrongType: "wrong_type"
        case .challengeMismatch: "challenge_mismatch"
        case .originNotAllowed: "origin_not_allowed"
        case .crossOrigin: "cross_origin"
        case .malformedAuthenticatorData: "malformed_authenticator_data"
        case .rpIDMismatch: "rp_id_mismatch"
        case .userNotPresent: "user_not_present"
        case .userNotVerified: "user_not_verified"
        case .backupFlagsInvalid: "backup_flags_invalid"
        case .credentialDataMissing: "credential_data_missing"
        case .credentialIDMismatch: "credential_id_mismatch"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .malformedPublicKey: "malformed_public_key"
        case .malformedAttestation: "malformed_attestation"
        case .unsupportedAttestation: "unsupported_attestation"
        case .attestationSignatureInvalid: "attestation_signature_invalid"
        case .signatureInvalid: "signature_invalid"
        case .signCountWentBack: "sign_count_went_back"
        }
    }
}
