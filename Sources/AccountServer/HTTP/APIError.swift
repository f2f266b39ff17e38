import AccountAPI
import HTTPServer

/// An error a handler throws to answer with a problem+json reply.
///
/// One middleware renders it in the caller's language (``ProblemRenderer``); handlers never build
/// error bodies themselves. Details are fixed texts chosen here, never values from the request, so
/// nothing secret can reach an error body.
public struct APIError: Error, Sendable {
    public var status: Int
    public var code: ErrorCode
    /// A more specific detail than the default text of `code`, in both languages.
    public var detail: LocalizedText?
    public var fieldErrors: FieldErrors?
    /// Extra reply headers (`Retry-After`, `Allow`).
    public var headers: HTTPHeaders

    public init(_ status: Int, _ code: ErrorCode, detail: LocalizedText? = nil, fieldErrors: FieldErrors? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.detail = detail
        self.fieldErrors = fieldErrors
        self.headers = headers
    }
}

/// A short text in each language the API speaks.
public struct LocalizedText: Sendable {
    public var en: String
    public var ko: String

    public init(en: String, ko: String) {
        self.en = en
        self.ko = ko
    }

    public func text(_ language: Language) -> String { language == .ko ? ko : en }
}

extension APIError {
    static func invalidRequest(_ detail: LocalizedText? = nil) -> APIError { APIError(400, .invalidRequest, detail: detail) }
    static func validation(_ errors: FieldErrors) -> APIError { APIError(422, .validationFailed, fieldErrors: errors) }
    static func validation(_ field: String, _ code: FieldErrorCode) -> APIError { .validation(field, [code]) }
    static func validation(_ field: String, _ codes: [FieldErrorCode]) -> APIError {
        var errors = FieldErrors()
        errors.add(contentsOf: codes, to: field)
        return .validation(errors)
    }
    static let notFound = APIError(404, .notFound)
    static func methodNotAllowed(_ allowed: [String]) -> APIError {
        APIError(405, .methodNotAllowed, headers: ["Allow": allowed.joined(separator: ", ")])
    }
    static let unsupportedMediaType = APIError(415, .unsupportedMediaType)
    static let payloadTooLarge = APIError(413, .payloadTooLarge)
    static let lengthRequired = APIError(411, .lengthRequired)
    static let invalidCredentials = APIError(401, .invalidCredentials)
    static func tokenInvalid(_ detail: LocalizedText? = nil) -> APIError { APIError(401, .tokenInvalid, detail: detail) }
    static let tokenExpired = APIError(401, .tokenExpired)
    static let refreshTokenReused = APIError(401, .refreshTokenReused)
    static let sessionRevoked = APIError(401, .sessionRevoked)
    static let emailNotVerified = APIError(403, .emailNotVerified)
    static let usernameTaken = APIError(409, .usernameTaken)
    static let codeInvalid = APIError(400, .codeInvalid)
    static let codeExpired = APIError(400, .codeExpired)
    static let tooManyAttempts = APIError(429, .tooManyAttempts)
    static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(429, .rateLimited, headers: ["Retry-After": String(max(1, seconds))])
    }
    static func serviceUnavailable(retryAfter seconds: Int = 1) -> APIError {
        APIError(503, .serviceUnavailable, headers: ["Retry-After": String(seconds)])
    }
    static let internalError = APIError(500, .internalError)
}
