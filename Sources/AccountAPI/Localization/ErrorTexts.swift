/// Titles and details of every ``ErrorCode``.
enum ErrorTexts {
    /// The title and detail of one problem code.
    struct Texts: Sendable {
        let title: LocalizedText
        let detail: LocalizedText
    }

    /// The texts of `code`, or generic ones for a code this version does not know.
    static func texts(for code: ErrorCode) -> Texts {
        table[code] ?? unknown
    }

    static let unknown = Texts(
        title: LocalizedText(en: "Something went wrong", ko: "문제가 발생했어요"),
        detail: LocalizedText(en: "The request could not be completed.", ko: "요청을 처리하지 못했어요."))

    static let table: [ErrorCode: Texts] = [
        .invalidRequest: Texts(
            title: LocalizedText(en: "Invalid request", ko: "잘못된 요청이에요"),
            detail: LocalizedText(
                en: "The request body is not a JSON object of the expected shape.",
                ko: "요청 본문이 올바른 형식의 JSON 객체가 아니에요.")),
        .validationFailed: Texts(
            title: LocalizedText(en: "Validation failed", ko: "입력값을 확인해 주세요"),
            detail: LocalizedText(en: "Some fields are invalid.", ko: "올바르지 않은 항목이 있어요.")),
        .invalidCredentials: Texts(
            title: LocalizedText(en: "Incorrect login details", ko: "로그인 정보가 올바르지 않아요"),
            detail: LocalizedText(
                en: "The nickname, email address or password is incorrect.",
                ko: "닉네임, 이메일 주소 또는 비밀번호를 다시 확인해 주세요.")),
        .tokenInvalid: Texts(
            title: LocalizedText(en: "Invalid sign-in", ko: "로그인 정보를 확인할 수 없어요"),
            detail: LocalizedText(
                en: "Your sign-in could not be verified, so please log in again.",
                ko: "인증 정보가 유효하지 않으니 다시 로그인해 주세요.")),
        .tokenExpired: Texts(
            title: LocalizedText(en: "Sign-in expired", ko: "로그인이 만료되었어요"),
            detail: LocalizedText(
                en: "Your sign-in has expired, so please log in again.",
                ko: "로그인 유효 시간이 지났으니 다시 로그인해 주세요.")),
        .refreshTokenReused: Texts(
            title: LocalizedText(en: "Session ended", ko: "세션이 종료되었어요"),
            detail: LocalizedText(
                en: "A sign-in token was used twice, so this session was ended for your security.",
                ko: "같은 로그인 토큰이 두 번 사용되어 보안을 위해 세션을 종료했어요.")),
        .sessionRevoked: Texts(
            title: LocalizedText(en: "Signed out", ko: "로그아웃되었어요"),
            detail: LocalizedText(
                en: "This session has been signed out, so please log in again.",
                ko: "이 세션은 로그아웃되었으니 다시 로그인해 주세요.")),
        .emailNotVerified: Texts(
            title: LocalizedText(en: "Email not verified", ko: "이메일 인증이 필요해요"),
            detail: LocalizedText(
                en: "Verify your email address with the code we sent before logging in.",
                ko: "보내 드린 인증 코드로 이메일 주소를 인증한 뒤 로그인해 주세요.")),
        .notFound: Texts(
            title: LocalizedText(en: "Not found", ko: "찾을 수 없어요"),
            detail: LocalizedText(
                en: "The requested resource does not exist.", ko: "요청한 항목이 존재하지 않아요.")),
        .methodNotAllowed: Texts(
            title: LocalizedText(en: "Method not allowed", ko: "허용되지 않는 요청 방식이에요"),
            detail: LocalizedText(
                en: "This path does not accept this request method.",
                ko: "이 주소는 해당 요청 방식을 지원하지 않아요.")),
        .usernameTaken: Texts(
            title: LocalizedText(en: "Nickname taken", ko: "이미 사용 중인 닉네임이에요"),
            detail: LocalizedText(
                en: "Another account already uses this nickname.",
                ko: "다른 계정이 이미 이 닉네임을 사용하고 있어요.")),
        .signUpSuperseded: Texts(
            title: LocalizedText(en: "Sign-up replaced", ko: "가입 신청이 바뀌었어요"),
            detail: LocalizedText(
                en: "This sign-up was replaced by a newer one for this address; sign up again.",
                ko: "이 주소로 더 최근에 들어온 가입 신청이 이 신청을 대신했어요. 다시 가입해 주세요.")),
        .lengthRequired: Texts(
            title: LocalizedText(en: "Length required", ko: "본문 길이가 필요해요"),
            detail: LocalizedText(
                en: "Send the request body with a Content-Length header; chunked uploads are not accepted.",
                ko: "요청 본문은 Content-Length 헤더와 함께 보내 주세요. 청크 방식 업로드는 받지 않아요.")),
        .payloadTooLarge: Texts(
            title: LocalizedText(en: "Request too large", ko: "요청이 너무 커요"),
            detail: LocalizedText(
                en: "The request body is larger than the server accepts.",
                ko: "요청 본문이 서버가 받을 수 있는 크기를 넘었어요.")),
        .requestTimeout: Texts(
            title: LocalizedText(en: "Request timeout", ko: "요청 시간이 초과되었어요"),
            detail: LocalizedText(
                en: "The request did not arrive in time, so the connection was closed.",
                ko: "요청이 제시간에 도착하지 않아 연결을 닫았어요.")),
        .uriTooLong: Texts(
            title: LocalizedText(en: "Address too long", ko: "요청 주소가 너무 길어요"),
            detail: LocalizedText(
                en: "The request line or its query is longer than the server accepts.",
                ko: "요청 줄이나 쿼리가 서버가 받을 수 있는 길이를 넘었어요.")),
        .headerFieldsTooLarge: Texts(
            title: LocalizedText(en: "Headers too large", ko: "요청 헤더가 너무 커요"),
            detail: LocalizedText(
                en: "The request has more header lines or header bytes than the server accepts.",
                ko: "요청 헤더의 줄 수나 크기가 서버가 받을 수 있는 한도를 넘었어요.")),
        .versionNotSupported: Texts(
            title: LocalizedText(en: "HTTP version not supported", ko: "지원하지 않는 HTTP 버전이에요"),
            detail: LocalizedText(en: "Send the request over HTTP/1.1.", ko: "요청은 HTTP/1.1로 보내 주세요.")),
        .unsupportedMediaType: Texts(
            title: LocalizedText(en: "Unsupported media type", ko: "지원하지 않는 형식이에요"),
            detail: LocalizedText(
                en: "Send the request body as application/json.",
                ko: "요청 본문은 application/json 형식으로 보내 주세요.")),
        .codeInvalid: Texts(
            title: LocalizedText(en: "Incorrect code", ko: "인증 코드가 올바르지 않아요"),
            detail: LocalizedText(
                en: "Check the verification code in the email and try again.",
                ko: "이메일로 받은 인증 코드를 확인하고 다시 입력해 주세요.")),
        .codeExpired: Texts(
            title: LocalizedText(en: "Code expired", ko: "인증 코드가 만료되었어요"),
            detail: LocalizedText(
                en: "The verification code has expired, so please request a new one.",
                ko: "인증 코드의 유효 시간이 지났으니 새 코드를 요청해 주세요.")),
        .tooManyAttempts: Texts(
            title: LocalizedText(en: "Too many attempts", ko: "시도 횟수를 초과했어요"),
            detail: LocalizedText(
                en: "The code was entered wrongly too many times, so please request a new one.",
                ko: "인증 코드를 너무 많이 틀렸으니 새 코드를 요청해 주세요.")),
        .rateLimited: Texts(
            title: LocalizedText(en: "Too many requests", ko: "요청이 너무 많아요"),
            detail: LocalizedText(
                en: "Please wait a moment before trying again.", ko: "잠시 기다린 뒤 다시 시도해 주세요.")),
        .serviceUnavailable: Texts(
            title: LocalizedText(en: "Service unavailable", ko: "서비스를 이용할 수 없어요"),
            detail: LocalizedText(
                en: "The service is temporarily unavailable, so please try again later.",
                ko: "일시적으로 서비스를 이용할 수 없으니 나중에 다시 시도해 주세요.")),
        .internalError: Texts(
            title: LocalizedText(en: "Internal error", ko: "서버 오류가 발생했어요"),
            detail: LocalizedText(
                en: "Something went wrong on our side, so please try again.",
                ko: "서버에서 예기치 않은 문제가 생겼으니 다시 시도해 주세요.")),
        .mfaRequired: Texts(
            title: LocalizedText(en: "Second factor needed", ko: "2단계 인증이 필요해요"),
            detail: LocalizedText(
                en: "Enter the 6-digit code from your authenticator app, or one of your recovery codes, to finish logging in.",
                ko: "로그인을 마치려면 인증 앱의 6자리 코드나 복구 코드 하나를 입력해 주세요.")),
        .mfaAlreadyEnabled: Texts(
            title: LocalizedText(en: "Authenticator already on", ko: "인증 앱이 이미 켜져 있어요"),
            detail: LocalizedText(
                en: "Two-step verification is already on. Turn it off first to set up another authenticator app.",
                ko: "2단계 인증이 이미 켜져 있어요. 다른 인증 앱을 등록하려면 먼저 꺼 주세요.")),
        .mfaNotEnabled: Texts(
            title: LocalizedText(en: "Authenticator not on", ko: "인증 앱이 켜져 있지 않아요"),
            detail: LocalizedText(
                en: "Two-step verification is not on for this account, or its setup was not started.",
                ko: "이 계정은 2단계 인증이 켜져 있지 않거나 설정을 시작하지 않았어요.")),
        .passkeyInvalid: Texts(
            title: LocalizedText(en: "Passkey not accepted", ko: "패스키를 확인하지 못했어요"),
            detail: LocalizedText(
                en: "The passkey could not be verified for this service. Please try again.",
                ko: "이 서비스의 패스키로 확인되지 않았어요. 다시 시도해 주세요.")),
        .passkeyExists: Texts(
            title: LocalizedText(en: "Passkey already added", ko: "이미 추가된 패스키예요"),
            detail: LocalizedText(
                en: "This passkey is already registered.", ko: "이 패스키는 이미 등록되어 있어요.")),
        .passkeyLimitReached: Texts(
            title: LocalizedText(en: "Too many passkeys", ko: "패스키가 너무 많아요"),
            detail: LocalizedText(
                en: "This account has the most passkeys it may hold (20). Remove one first.",
                ko: "이 계정에 등록할 수 있는 패스키(20개)가 모두 찼어요. 먼저 하나를 삭제해 주세요.")),
        .challengeInvalid: Texts(
            title: LocalizedText(en: "Passkey request not valid", ko: "패스키 요청이 올바르지 않아요"),
            detail: LocalizedText(
                en: "This passkey request is unknown or was already used. Please start again.",
                ko: "알 수 없거나 이미 사용된 패스키 요청이에요. 처음부터 다시 시도해 주세요.")),
        .challengeExpired: Texts(
            title: LocalizedText(en: "Passkey request expired", ko: "패스키 요청이 만료되었어요"),
            detail: LocalizedText(
                en: "The passkey request expired after 5 minutes. Please start again.",
                ko: "패스키 요청이 5분이 지나 만료되었어요. 처음부터 다시 시도해 주세요.")),
        .adminRequired: Texts(
            title: LocalizedText(en: "Operators only", ko: "운영자만 쓸 수 있어요"),
            detail: LocalizedText(
                en: "This account is not an operator. The admin role is granted on the server's command line.",
                ko: "이 계정은 운영자가 아니에요. 운영자 권한은 서버의 명령줄에서만 줄 수 있어요.")),
        .secondFactorRequired: Texts(
            title: LocalizedText(en: "Second factor needed", ko: "2단계 인증이 필요해요"),
            detail: LocalizedText(
                en: "Operators must log in with their second factor. Log in again with your authenticator app.",
                ko: "운영자는 2단계 인증으로 로그인해야 해요. 인증 앱으로 다시 로그인해 주세요.")),
        .accountDisabled: Texts(
            title: LocalizedText(en: "Account disabled", ko: "사용이 중지된 계정이에요"),
            detail: LocalizedText(
                en: "This account has been disabled by the service's operators. Contact support.",
                ko: "운영자가 이 계정의 사용을 중지했어요. 고객 지원에 문의해 주세요.")),
        .profileRequired: Texts(
            title: LocalizedText(en: "Choose a nickname", ko: "닉네임을 정해 주세요"),
            detail: LocalizedText(
                en: "Welcome! Choose a nickname and your MBTI type to finish signing up with Apple.",
                ko: "환영해요! Apple로 가입을 마치려면 닉네임과 MBTI 유형을 정해 주세요.")),
        .appleLinkRequired: Texts(
            title: LocalizedText(en: "Account already exists", ko: "이미 있는 계정이에요"),
            detail: LocalizedText(
                en: "An account already uses this email address. Log in to it, then connect Apple from your profile.",
                ko: "이 이메일 주소를 쓰는 계정이 이미 있어요. 그 계정으로 로그인한 뒤 프로필에서 Apple을 연결해 주세요.")),
        .appleTokenInvalid: Texts(
            title: LocalizedText(en: "Apple sign-in not accepted", ko: "Apple 로그인을 확인하지 못했어요"),
            detail: LocalizedText(
                en: "Sign in with Apple could not be verified. Please try again.",
                ko: "Apple 로그인을 확인하지 못했어요. 다시 시도해 주세요.")),
        .appleAlreadyLinked: Texts(
            title: LocalizedText(en: "Apple ID already connected", ko: "이미 연결된 Apple ID예요"),
            detail: LocalizedText(
                en: "This Apple ID is connected to another account, or this account to another Apple ID.",
                ko: "이 Apple ID는 다른 계정에 연결되어 있거나, 이 계정이 다른 Apple ID에 연결되어 있어요.")),
        .lastSignInMethod: Texts(
            title: LocalizedText(en: "Last way to log in", ko: "마지막 로그인 방법이에요"),
            detail: LocalizedText(
                en: "Apple is this account's only way to log in. Set a password or add a passkey first.",
                ko: "Apple이 이 계정의 유일한 로그인 방법이에요. 먼저 비밀번호를 설정하거나 패스키를 추가해 주세요.")),
        .appleNotConfigured: Texts(
            title: LocalizedText(en: "Sign in with Apple unavailable", ko: "Apple로 로그인을 쓸 수 없어요"),
            detail: LocalizedText(
                en: "This server does not offer Sign in with Apple.",
                ko: "이 서버는 Apple로 로그인을 제공하지 않아요.")),
    ]
}
