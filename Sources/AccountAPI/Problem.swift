import Foundation

/// One reason a field was refused, with a message in the caller's language.
public struct FieldError: Codable, Hashable, Sendable {
    /// Why the field was refused.
    public let code: FieldErrorCode
    /// The reason for people, in the language the request asked for.
    public let message: String

    /// - Parameters:
    ///   - code: why the field was refused.
    ///   - message: the reason for people.
    public init(code: FieldErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// An RFC 9457 problem details body (`application/problem+json`), as every error reply carries.
///
/// ```json
/// {"type": "about:blank", "title": "Validation failed", "status": 422,
///  "code": "validation_failed", "detail": "Some fields are invalid.", "message": "Some fields are invalid.",
///  "errors": {"password": [{"code": "too_short", "message": "Use at least 8 characters."}]}}
/// ```
public struct Problem: Codable, Hashable, Sendable, Error {
    /// Always `about:blank`: the `code` says what happened.
    public let type: String
    /// A short summary for people, in the request's language.
    public let title: String
    /// The HTTP status of the reply.
    public let status: Int
    /// The stable, machine-readable code.
    public let code: ErrorCode
    /// One sentence for people, in the request's language.
    public let detail: String?
    /// The same words as `detail`, for clients that show a `message` member (an RFC 9457
    /// extension member); the server sends it on every problem.
    public let message: String?
    /// Per-field errors by wire field name (`"username"`); present only on `validation_failed`.
    public let errors: [String: [FieldError]]?
    /// On `mfa_required` at login: the opaque, single-use token (5 minutes) that
    /// `POST /auth/mfa/verify` takes with a second factor.
    public let mfaToken: String?
    /// On `mfa_required`: the ways to answer, `["totp", "recovery_code"]`.
    public let methods: [SecondFactorMethod]?
    /// On `profile_required` (Sign in with Apple, a new user): the opaque, single-use token
    /// `POST /auth/apple/complete` takes with a nickname and MBTI type.
    public let continuationToken: String?
    /// On `profile_required`: seconds the continuation token is valid (600).
    public let expiresIn: Int?
    /// On `profile_required`: the address Apple gave (a private relay address included).
    public let email: String?

    /// A problem body as the server sends it.
    public init(
        type: String = "about:blank", title: String, status: Int, code: ErrorCode,
        detail: String? = nil, message: String? = nil, errors: [String: [FieldError]]? = nil,
        mfaToken: String? = nil, methods: [SecondFactorMethod]? = nil,
        continuationToken: String? = nil, expiresIn: Int? = nil, email: String? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.message = message
        self.errors = errors
        self.mfaToken = mfaToken
        self.methods = methods
        self.continuationToken = continuationToken
        self.expiresIn = expiresIn
        self.email = email
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, code, detail, message, errors
        case mfaToken = "mfa_token"
        case methods
        case continuationToken = "continuation_token"
        case expiresIn = "expires_in"
        case email
    }

    /// The media type of problem bodies.
    package static let mediaType = "application/problem+json"
}
