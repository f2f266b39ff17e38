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
        APIError(.methodNotAllowed, allowedMethods: allowed)
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
        APIError(.rateLimited, retryAfter: max(1, seconds))
    }
    static func serviceUnavailable(retryAfter seconds: Int = 1) -> APIError {
        APIError(.serviceUnavailable, retryAfter: seconds)
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
