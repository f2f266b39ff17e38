import AccountAPI

/// A refusal: a code of the contract's error catalog with its status, and what the reply adds to
/// it. Operations and handlers throw it; the request pipeline renders it as problem+json in the
/// caller's language (``ProblemRenderer``); nothing else builds error bodies. Details are fixed texts chosen here, never values from the request, so
/// nothing secret can reach an error body.
public struct APIError: Error, Sendable {
    public var status: Int
    public var code: ErrorCode
    /// A more specific detail than the default text of `code`, in both languages.
    public var detail: LocalizedText?
    public var fieldErrors: FieldErrors?
    /// Seconds until a retry may succeed (the reply's `Retry-After`).
    public var retryAfter: Int?
    /// The methods the path allows (the reply's `Allow`), for `405`.
    public var allowedMethods: [String]?
    /// The `mfa_token` and `methods` members of a `403 mfa_required`: a secret made for this reply.
    public var secondFactor: SecondFactorChallenge?
    /// The `continuation_token`, `expires_in` and `email` members of a `403 profile_required`.
    public var appleProfile: AppleProfileRequired?

    public init(
        _ status: Int, _ code: ErrorCode, detail: LocalizedText? = nil, fieldErrors: FieldErrors? = nil, retryAfter: Int? = nil, allowedMethods: [String]? = nil,
        secondFactor: SecondFactorChallenge? = nil, appleProfile: AppleProfileRequired? = nil
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.fieldErrors = fieldErrors
        self.retryAfter = retryAfter
        self.allowedMethods = allowedMethods
        self.secondFactor = secondFactor
        self.appleProfile = appleProfile
    }

    /// An error of `code` with the status the catalog gives it (``ErrorCatalog/Entry/status``),
    /// or `status`, one of the code's other statuses there.
    public init(
        _ code: ErrorCode, status: Int? = nil, detail: LocalizedText? = nil, fieldErrors: FieldErrors? = nil, retryAfter: Int? = nil, allowedMethods: [String]? = nil,
        secondFactor: SecondFactorChallenge? = nil, appleProfile: AppleProfileRequired? = nil
    ) {
        self.init(
            status ?? ErrorCatalog.entry(code)?.status ?? 500, code, detail: detail, fieldErrors: fieldErrors, retryAfter: retryAfter, allowedMethods: allowedMethods,
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
    package static func invalidRequest(_ detail: LocalizedText? = nil) -> APIError { APIError(.invalidRequest, detail: detail) }
    package static func validation(_ errors: FieldErrors) -> APIError { APIError(.validationFailed, fieldErrors: errors) }
    package static func validation(_ field: String, _ code: FieldErrorCode) -> APIError { .validation(field, [code]) }
    package static func validation(_ field: String, _ codes: [FieldErrorCode]) -> APIError {
        var errors = FieldErrors()
        errors.add(contentsOf: codes, to: field)
        return .validation(errors)
    }
    package static let notFound = APIError(.notFound)
    package static func methodNotAllowed(_ allowed: [String]) -> APIError {
        APIError(.methodNotAllowed, allowedMethods: allowed)
    }
    package static let unsupportedMediaType = APIError(.unsupportedMediaType)
    package static let payloadTooLarge = APIError(.payloadTooLarge)
    package static let lengthRequired = APIError(.lengthRequired)
    package static let requestTimeout = APIError(.requestTimeout)
    package static let uriTooLong = APIError(.uriTooLong)
    package static let headerFieldsTooLarge = APIError(.headerFieldsTooLarge)
    package static let versionNotSupported = APIError(.versionNotSupported)
    package static let invalidCredentials = APIError(.invalidCredentials)
    package static func tokenInvalid(_ detail: LocalizedText? = nil) -> APIError { APIError(.tokenInvalid, detail: detail) }
    package static let tokenExpired = APIError(.tokenExpired)
    package static let refreshTokenReused = APIError(.refreshTokenReused)
    package static let sessionRevoked = APIError(.sessionRevoked)
    package static let emailNotVerified = APIError(.emailNotVerified)
    package static let usernameTaken = APIError(.usernameTaken)
    package static let signUpSuperseded = APIError(.signUpSuperseded)
    package static let codeInvalid = APIError(.codeInvalid)
    /// `code_invalid` for a second factor: the code's own text speaks of an emailed code.
    package static let secondFactorInvalid = APIError(
        .codeInvalid,
        detail: LocalizedText(
            en: "The authenticator code or recovery code is wrong, or it was used already.",
            ko: "인증 앱 코드나 복구 코드가 올바르지 않거나 이미 사용되었어요."))
    package static let codeExpired = APIError(.codeExpired)
    package static let tooManyAttempts = APIError(.tooManyAttempts)
    package static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(.rateLimited, retryAfter: max(1, seconds))
    }
    package static func serviceUnavailable(retryAfter seconds: Int = 1) -> APIError {
        APIError(.serviceUnavailable, retryAfter: seconds)
    }
    package static let internalError = APIError(.internalError)
    /// A list request's `after` that is not the `next` cursor of an earlier page of the same order.
    package static let invalidAfter = APIError.invalidRequest(LocalizedText(
        en: "after must be the next cursor of an earlier page.", ko: "after에는 이전 페이지의 next 값을 보내야 해요."))
    package static func mfaRequired(_ challenge: SecondFactorChallenge) -> APIError { APIError(.mfaRequired, secondFactor: challenge) }
    package static let mfaAlreadyEnabled = APIError(.mfaAlreadyEnabled)
    package static let mfaNotEnabled = APIError(.mfaNotEnabled)
    package static let passkeyInvalid = APIError(.passkeyInvalid)
    package static let passkeyLoginFailed = APIError(.passkeyInvalid, status: 401)
    package static let passkeyExists = APIError(.passkeyExists)
    package static let challengeInvalid = APIError(.challengeInvalid)
    package static let challengeExpired = APIError(.challengeExpired)
    package static let adminRequired = APIError(.adminRequired)
    package static let secondFactorRequired = APIError(.secondFactorRequired)
    package static let accountDisabled = APIError(.accountDisabled)
    package static let cannotActOnSelf = APIError(.cannotActOnSelf)
    package static let alreadyVerified = APIError(.alreadyVerified)
}
