import Foundation

// Sign in with Apple on the wire: the identity token Apple gave the app (with the raw nonce the
// app hashed into it) goes to the server, which answers like a login, or asks for a nickname.

/// `POST /auth/apple`: log in with Apple (and `POST /auth/apple/link`, without `deviceName`).
public struct AppleSignInRequest: Codable, Hashable, Sendable {
    /// Apple's identity token (a JWT), `ASAuthorizationAppleIDCredential.identityToken` as text.
    public var identityToken: String?
    /// The raw nonce whose SHA-256 (hex) the app put in the request to Apple.
    public var nonce: String?
    /// Apple's one-time authorization code, so the server can revoke the grant when the account
    /// is deleted.
    public var authorizationCode: String?
    /// A name for the new session's device.
    public var deviceName: String?

    public init(identityToken: String, nonce: String, authorizationCode: String? = nil, deviceName: String? = nil) {
        self.identityToken = identityToken
        self.nonce = nonce
        self.authorizationCode = authorizationCode
        self.deviceName = deviceName
    }

    enum CodingKeys: String, CodingKey {
        case identityToken = "identity_token"
        case nonce
        case authorizationCode = "authorization_code"
        case deviceName = "device_name"
    }
}

/// `POST /auth/apple/link` (signed in): links the Apple ID of a fresh identity token to the
/// caller's account, with the step-up proof (``StepUpProof``) of what the account had before.
public struct AppleLinkRequest: Codable, Hashable, Sendable {
    /// Apple's identity token (a JWT) of the Apple ID to link.
    public var identityToken: String?
    /// The raw nonce whose SHA-256 (hex) the app put in the request to Apple.
    public var nonce: String?
    /// Apple's one-time authorization code, so the server can revoke the grant later.
    public var authorizationCode: String?
    /// The step-up proof; its members sit beside the token's.
    public var proof: StepUpProof

    public init(identityToken: String, nonce: String, authorizationCode: String? = nil, proof: StepUpProof) {
        self.identityToken = identityToken
        self.nonce = nonce
        self.authorizationCode = authorizationCode
        self.proof = proof
    }

    enum CodingKeys: String, CodingKey {
        case identityToken = "identity_token"
        case nonce
        case authorizationCode = "authorization_code"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identityToken = try container.decodeIfPresent(String.self, forKey: .identityToken)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        authorizationCode = try container.decodeIfPresent(String.self, forKey: .authorizationCode)
        proof = try StepUpProof(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try proof.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(identityToken, forKey: .identityToken)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(authorizationCode, forKey: .authorizationCode)
    }
}

/// `POST /auth/apple/complete`: finishes a new Apple user's sign-up with the original's fields.
public struct AppleCompleteRequest: Codable, Hashable, Sendable {
    /// `continuation_token` of the `403 profile_required`.
    public var continuationToken: String?
    public var username: String?
    public var mbti: String?
    public var deviceName: String?

    public init(continuationToken: String, username: String, mbti: String, deviceName: String? = nil) {
        self.continuationToken = continuationToken
        self.username = username
        self.mbti = mbti
        self.deviceName = deviceName
    }

    enum CodingKeys: String, CodingKey {
        case continuationToken = "continuation_token"
        case username, mbti
        case deviceName = "device_name"
    }
}

/// The members of a `403 profile_required` beside the problem's own.
public struct AppleProfileRequired: Hashable, Sendable {
    /// Single use, for `POST /auth/apple/complete`.
    public let continuationToken: String
    /// Seconds it is valid.
    public let expiresIn: Int
    /// The address Apple gave.
    public let email: String

    public init(continuationToken: String, expiresIn: Int, email: String) {
        self.continuationToken = continuationToken
        self.expiresIn = expiresIn
        self.email = email
    }
}

extension AuthenticationMethod {
    /// Sign in with Apple (not a registered RFC 8176 value: none fits).
    public static let apple = "apple"
}

// MARK: Printing without secrets

extension AppleSignInRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["identityToken": Redaction.secret(identityToken), "nonce": Redaction.secret(nonce),
         "authorizationCode": Redaction.secret(authorizationCode), "deviceName": deviceName as Any]
    }
}

extension AppleLinkRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["identityToken": Redaction.secret(identityToken), "nonce": Redaction.secret(nonce),
         "authorizationCode": Redaction.secret(authorizationCode), "proof": proof]
    }
}

extension AppleCompleteRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["continuationToken": Redaction.secret(continuationToken), "username": username as Any, "mbti": mbti as Any]
    }
}
