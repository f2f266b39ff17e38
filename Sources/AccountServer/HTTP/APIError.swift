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
    /// The `mfa_token` and `methods` members of a `403 mfa_required`: a secret made for this reply.
    public var secondFactor: SecondFactorChallenge?
    /// The `continuation_token`, `expires_in` and `email` members of a `403 profile_required`.
    public var appleProfile: AppleProfileRequired?

    public init(
        _ status: Int, _ code: ErrorCode, detail: LocalizedText? = nil, fieldErrors: FieldErrors? = nil, headers: HTTPHeaders = [:],
        secondFactor: SecondFactorChallenge? = nil, appleProfile: AppleProfileRequired? = nil
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.fieldErrors = fieldErrors
        self.headers = headers
        self.secondFactor = secondFactor
        self.appleProfile = appleProfile
    }

    /// An error of `code` with the status the catalog gives it (``ErrorCatalog/Entry/status``),
    /// or `status`, one of the code's other statuses there.
    public init(
        _ code: ErrorCode, status: Int? = nil, detail: LocalizedText? = nil, fieldErrors: FieldErrors? = nil, headers: HTTPHeaders = [:],
        secondFactor: SecondFactorChallenge? = nil, appleProfile: AppleProfileRequired? = nil
    ) {
        self.init(
            status ?? ErrorCatalog.entry(code)?.status ?? 500, code, detail: detail, fieldErrors: fieldErrors, headers: headers,
            secondFactor: secondFactor, appleProfile: appleProfile)
    }
}

/// What a login that needs a second factor answers with, besides the problem's own members.
public struct SecondFactorChallenge: Sendable {
    /// The opaque token `POST /auth/mfa/verify` takes.
    public let token: String
    /// The factors that may answer it.
    public let methods: [SecondFactorMethod]
}

extension APIError {
    static func invalidRequest(_ detail: LocalizedText? = nil) -> APIError { APIError(.invalidRequest, detail: detail) }
    static func validation(_ errors: FieldErrors) -> APIError { APIError(.validationFailed, fieldErrors: errors) }
    static func validation(_ field: String, _ code: FieldErrorCode) -> APIError { .validation(field, [code]) }
    static func validation(_ field: String, _ codes: [FieldErrorCode]) -> APIError {
        var errors = FieldErrors()
        errors.add(contentsOf: codes, to: field)
        return .validation(errors)
    }
    static let notFound = APIError(.notFound)
    static func methodNotAllowed(_ allowed: [String]) -> APIError {
        APIError(.methodNotAllowed, headers: ["Allow": allowed.joined(separator: ", ")])
    }
    static let unsupportedMediaType = APIError(.unsupportedMediaType)
    static let payloadTooLarge = APIError(.payloadTooLarge)
    static let lengthRequired = APIError(.lengthRequired)
    static let requestTimeout = APIError(.requestTimeout)
    static let uriTooLong = APIError(.uriTooLong)
    static let headerFieldsTooLarge = APIError(.headerFieldsTooLarge)
    static let versionNotSupported = APIError(.versionNotSupported)
    static let invalidCredentials = APIError(.invalidCredentials)
    static func tokenInvalid(_ detail: LocalizedText? = nil) -> APIError { APIError(.tokenInvalid, detail: detail) }
    static let tokenExpired = APIError(.tokenExpired)
    static let refreshTokenReused = APIError(.refreshTokenReused)
    static let sessionRevoked = APIError(.sessionRevoked)
    static let emailNotVerified = APIError(.emailNotVerified)
    static let usernameTaken = APIError(.usernameTaken)
    static let signUpSuperseded = APIError(.signUpSuperseded)
    static let codeInvalid = APIError(.codeInvalid)
    /// `code_invalid` for a second factor: the code's own text speaks of an emailed code.
    static let secondFactorInvalid = APIError(
        .codeInvalid,
        detail: LocalizedText(
            en: "The authenticator code or recovery code is wrong, or it was used already.",
            ko: "인증 앱 코드나 복구 코드가 올바르지 않거나 이미 사용되었어요."))
    static let codeExpired = APIError(.codeExpired)
    static let tooManyAttempts = APIError(.tooManyAttempts)
    static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(.rateLimited, headers: ["Retry-After": String(max(1, seconds))])
    }
    static func serviceUnavailable(retryAfter seconds: Int = 1) -> APIError {
        APIError(.serviceUnavailable, headers: ["Retry-After": String(seconds)])
    }
    static let internalError = APIError(.internalError)
    static func mfaRequired(_ challenge: SecondFactorChallenge) -> APIError { APIError(.mfaRequired, secondFactor: challenge) }
    static let mfaAlreadyEnabled = APIError(.mfaAlreadyEnabled)
    static let mfaNotEnabled = APIError(.mfaNotEnabled)
    static let passkeyInvalid = APIError(.passkeyInvalid)
    static let passkeyLoginFailed = APIError(.passkeyInvalid, status: 401)
    static let passkeyExists = APIError(.passkeyExists)
    static let challengeInvalid = APIError(.challengeInvalid)
    static let challengeExpired = APIError(.challengeExpired)
    static let adminRequired = APIError(.adminRequired)
    static let secondFactorRequired = APIError(.secondFactorRequired)
    static let accountDisabled = APIError(.accountDisabled)
    static let cannotActOnSelf = APIError(.cannotActOnSelf)
    static let alreadyVerified = APIError(.alreadyVerified)
}

extension APIError {
    /// The reply to a refused access token: `token_expired` when it ran out, `token_invalid` for
    /// anything else. The body says no more; the reason goes to the log line (``AccountApp/handle(_:)``).
    init(_ error: TokenError) {
        self = error == .expired ? .tokenExpired : .tokenInvalid()
    }

    /// The reply to a request the HTTP layer refused before routing it.
    static func refusal(_ refusal: HTTPRefusal) -> APIError {
        switch refusal {
        case .malformed(let rule): .invalidRequest(malformedDetail(rule))
        case .requestTimeout: .requestTimeout
        case .lengthRequired: .lengthRequired
        case .payloadTooLarge: .payloadTooLarge
        case .uriTooLong: .uriTooLong
        case .headerFieldsTooLarge: .headerFieldsTooLarge
        case .versionNotSupported: .versionNotSupported
        }
    }

    private static func malformedDetail(_ rule: MalformedRequest) -> LocalizedText {
        switch rule {
        case .framing:
            LocalizedText(
                en: "The request is not well-formed HTTP/1.1: check the request line, the line endings (CRLF) and each header line.",
                ko: "요청이 올바른 HTTP/1.1 형식이 아니에요. 요청 줄, 줄바꿈(CRLF), 각 헤더 줄을 확인해 주세요.")
        case .host:
            LocalizedText(
                en: "An HTTP/1.1 request needs exactly one valid Host header.",
                ko: "HTTP/1.1 요청에는 올바른 Host 헤더가 정확히 하나 있어야 해요.")
        case .contentLength:
            LocalizedText(
                en: "Send Content-Length once, as a plain decimal number, and never beside Transfer-Encoding.",
                ko: "Content-Length는 한 번만, 부호 없는 십진수로 보내고 Transfer-Encoding과 함께 보내지 마세요.")
        case .target:
            LocalizedText(
                en: "The path or query holds a control character or a malformed percent-encoding.",
                ko: "경로나 쿼리에 제어 문자 또는 잘못된 퍼센트 인코딩이 들어 있어요.")
        }
    }
}
