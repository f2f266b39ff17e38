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

/// `POST /auth/apple/link` (signed in): links the Apple ID to the caller's account.
public typealias AppleLinkRequest = AppleSignInRequest

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

extension AppleCompleteRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["continuationToken": Redaction.secret(continuationToken), "username": username as Any, "mbti": mbti as Any]
    }
}
