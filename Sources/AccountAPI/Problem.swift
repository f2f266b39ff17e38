import Foundation

/// One reason a field was refused, with a message in the caller's language.
public struct FieldError: Codable, Hashable, Sendable {
    public let code: FieldErrorCode
    public let message: String

    public init(code: FieldErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// An RFC 9457 problem details body (`application/problem+json`), as every error reply carries.
///
/// ```json
/// {"type": "about:blank", "title": "Validation failed", "status": 422,
///  "code": "validation_failed", "detail": "Some fields are invalid.",
///  "errors": {"password": [{"code": "too_short", "message": "Use at least 8 characters."}]}}
/// ```
public struct Problem: Codable, Hashable, Sendable, Error {
    public let type: String
    public let title: String
    public let status: Int
    public let code: ErrorCode
    public let detail: String?
    /// Per-field errors; present only on `validation_failed`.
    public let errors: [String: [FieldError]]?

    public init(
        type: String = "about:blank", title: String, status: Int, code: ErrorCode,
        detail: String? = nil, errors: [String: [FieldError]]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors
    }

    /// The media type of problem bodies.
    public static let mediaType = "application/problem+json"
}
