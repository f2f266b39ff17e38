import Foundation

// Passkeys (WebAuthn Level 3) on the wire: the options the server makes and the credentials a
// client returns, in the spec's JSON forms (binary fields as unpadded base64url), so a browser's
// `PublicKeyCredential.parseCreationOptionsFromJSON()` and `credential.toJSON()` fit unchanged.

/// The relying party of `PublicKeyCredentialCreationOptionsJSON` (`rp`).
public struct PasskeyRelyingParty: Codable, Hashable, Sendable {
    public let id: String
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The account a passkey is made for (`user`): `id` is the user handle (base64url of the
/// account's 16-byte UUID), `name` its email address, `displayName` its nickname.
public struct PasskeyUserEntity: Codable, Hashable, Sendable {
    public let id: String
    public let name: String
    public let displayName: String

    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// One algorithm the server accepts (`pubKeyCredParams`): `-8` EdDSA, `-7` ES256, `-257` RS256.
public struct PasskeyCredentialParameters: Codable, Hashable, Sendable {
    public let type: String
    public let alg: Int

    public init(alg: Int) {
        self.type = "public-key"
        self.alg = alg
    }
}

/// A credential named in `excludeCredentials` or `allowCredentials` (its id in base64url).
public struct PasskeyCredentialDescriptor: Codable, Hashable, Sendable {
    public let type: String
    public let id: String
    public let transports: [String]?

    public init(id: String, transports: [String]?) {
        self.type = "public-key"
        self.id = id
        self.transports = transports
    }
}

/// `authenticatorSelection`: a discoverable credential (a passkey) with user verification.
public struct PasskeyAuthenticatorSelection: Codable, Hashable, Sendable {
    public let residentKey: String
    public let requireResidentKey: Bool
    public let userVerification: String

    public init() {
        residentKey = "required"
        requireResidentKey = true
        userVerification = "required"
    }
}

/// Reply of `POST /auth/passkeys/register/options`: WebAuthn L3's
/// `PublicKeyCredentialCreationOptionsJSON`, for `navigator.credentials.create()` or
/// `ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialRegistrationRequest`.
public struct PasskeyCreationOptions: Codable, Hashable, Sendable {
    public let rp: PasskeyRelyingParty
    public let user: PasskeyUserEntity
    /// 32 random bytes, base64url; single use, valid `timeout` milliseconds.
    public let challenge: String
    public let pubKeyCredParams: [PasskeyCredentialParameters]
    public let timeout: Int
    /// The account's passkeys, so an authenticator that holds one does not make another.
    public let excludeCredentials: [PasskeyCredentialDescriptor]
    public let authenticatorSelection: PasskeyAuthenticatorSelection
    /// Always `none`: the server does not judge authenticators by their make.
    public let attestation: String
    public let hints: [String]

    public init(
        rp: PasskeyRelyingParty, user: PasskeyUserEntity, challenge: String, pubKeyCredParams: [PasskeyCredentialParameters], timeout: Int,
        excludeCredentials: [PasskeyCredentialDescriptor]
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = PasskeyAuthenticatorSelection()
        self.attestation = "none"
        self.hints = []
    }
}

/// Reply of `POST /auth/passkeys/login/options` and `/auth/passkeys/reauth/options`: WebAuthn L3's
/// `PublicKeyCredentialRequestOptionsJSON`; a login's has no `allowCredentials` (any passkey of
/// this RP), a reauthentication's lists the account's passkeys.
public struct PasskeyRequestOptions: Codable, Hashable, Sendable {
    public let challenge: String
    public let timeout: Int
    public let rpId: String
    public let allowCredentials: [PasskeyCredentialDescriptor]
    public let userVerification: String
    public let hints: [String]

    /// - Parameter allowCredentials: the passkeys that may answer; empty (a login): any of this RP.
    public init(challenge: String, timeout: Int, rpId: String, allowCredentials: [PasskeyCredentialDescriptor] = []) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = "required"
        self.hints = []
    }
}

/// WebAuthn L3's `RegistrationResponseJSON` (what `credential.toJSON()` gives after `create()`).
public struct PasskeyRegistrationCredential: Codable, Hashable, Sendable {
    /// `AuthenticatorAttestationResponseJSON`; only the fields the server reads are decoded.
    public struct Response: Codable, Hashable, Sendable {
        public var clientDataJSON: String
        public var attestationObject: String
        public var transports: [String]?

        public init(clientDataJSON: String, attestationObject: String, transports: [String]?) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }

    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response

    public init(id: String, rawId: String, type: String = "public-key", response: Response) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
    }
}

/// WebAuthn L3's `AuthenticationResponseJSON` (what `credential.toJSON()` gives after `get()`).
public struct PasskeyAssertionCredential: Codable, Hashable, Sendable {
    /// `AuthenticatorAssertionResponseJSON`.
    public struct Response: Codable, Hashable, Sendable {
        public var clientDataJSON: String
        public var authenticatorData: String
        public var signature: String
        /// The user handle the passkey was made with (a discoverable credential always sends it).
        public var userHandle: String?

        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response

    public init(id: String, rawId: String, type: String = "public-key", response: Response) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
    }
}

/// `POST /auth/passkeys/register`: the new credential and the name its owner gives the device,
/// with the step-up proof (``StepUpProof``) of what the account had before it.
public struct PasskeyRegisterRequest: Codable, Hashable, Sendable {
    /// 1–64 characters, shown in the list (`iPhone`, `회사 노트북`).
    public var name: String?
    public var credential: PasskeyRegistrationCredential?
    /// The step-up proof; its members sit beside `name` and `credential`.
    public var proof: StepUpProof

    public init(name: String, credential: PasskeyRegistrationCredential, proof: StepUpProof) {
        self.name = name
        self.credential = credential
        self.proof = proof
    }

    enum CodingKeys: String, CodingKey {
        case name, credential
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        credential = try container.decodeIfPresent(PasskeyRegistrationCredential.self, forKey: .credential)
        proof = try StepUpProof(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try proof.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(credential, forKey: .credential)
    }
}

/// `POST /auth/passkeys/login`: the signed assertion.
public struct PasskeyLoginRequest: Codable, Hashable, Sendable {
    public var credential: PasskeyAssertionCredential?

    public init(credential: PasskeyAssertionCredential) { self.credential = credential }
}

/// One passkey of the account, as `GET /auth/passkeys` lists it.
public struct Passkey: Codable, Hashable, Sendable {
    public let id: UUID
    public let name: String
    /// The credential id, base64url (what `allowCredentials` and `rawId` carry).
    public let credentialID: String
    /// `-7` ES256, `-8` EdDSA, `-257` RS256.
    public let algorithm: Int
    /// Whether it may be synced to the owner's other devices (BE); fixed when it was made.
    public let backupEligible: Bool
    /// Whether it was backed up at its last use (BS).
    public let backedUp: Bool
    public let transports: [String]
    public let createdAt: Date
    public let lastUsedAt: Date?

    public init(
        id: UUID, name: String, credentialID: String, algorithm: Int, backupEligible: Bool, backedUp: Bool, transports: [String],
        createdAt: Date, lastUsedAt: Date?
    ) {
        self.id = id
        self.name = name
        self.credentialID = credentialID
        self.algorithm = algorithm
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, algorithm, transports
        case credentialID = "credential_id"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// Reply of `GET /auth/passkeys`.
public struct PasskeyList: Codable, Hashable, Sendable {
    public let passkeys: [Passkey]

    public init(passkeys: [Passkey]) { self.passkeys = passkeys }
}

extension AuthenticationMethod {
    /// A key the user proves possession of, kept in hardware (RFC 8176 `hwk`): a passkey that
    /// cannot leave its device (backup eligibility off).
    public static let hardwareKey = "hwk"
    /// A key in software (RFC 8176 `swk`): a synced passkey (backup eligible), whose private key
    /// travels between the owner's devices through their platform's keychain.
    public static let softwareKey = "swk"
    /// The authenticator verified the user (RFC 8176 `user`: a test of the user's presence and
    /// interaction; a passkey asks for Face ID, a fingerprint or the device PIN).
    public static let userPresence = "user"
    /// More than one factor (RFC 8176 `mfa`): possession of the key and the user's verification.
    public static let multipleFactors = "mfa"
}
