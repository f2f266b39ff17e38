extension ErrorCatalog {
    /// Every problem code, in the order `/openapi.json` lists them.
    public static let entries: [Entry] = [
        Entry(
            .invalidRequest, 400,
            title: LocalizedText(en: "Invalid request", ko: "잘못된 요청이에요"),
            detail: LocalizedText(
                en: "The request body is not a JSON object of the expected shape.",
                ko: "요청 본문이 올바른 형식의 JSON 객체가 아니에요."),
            doc: "The body is empty, not JSON, not an object, has a field of the wrong type or invalid UTF-8; two login identifiers; a `scope` that is not `local`, `others` or `global`. Also a request that is not well-formed HTTP/1.1: a bad request line or header line, a bare CR or LF, no `Host` or two, `Content-Length` twice (even equal), not a plain number or beside `Transfer-Encoding`, a control character or malformed `%` in the path or query."),
        Entry(
            .validationFailed, 422,
            title: LocalizedText(en: "Validation failed", ko: "입력값을 확인해 주세요"),
            detail: LocalizedText(en: "Some fields are invalid.", ko: "올바르지 않은 항목이 있어요."),
            doc: "One or more fields break the field rules; `errors` says which and why."),
        Entry(
            .invalidCredentials, 401, also: [403],
            title: LocalizedText(en: "Incorrect login details", ko: "로그인 정보가 올바르지 않아요"),
            detail: LocalizedText(
                en: "The nickname, email address or password is incorrect.",
                ko: "닉네임, 이메일 주소 또는 비밀번호를 다시 확인해 주세요."),
            doc: "401 at login: unknown account or wrong password (never says which). 403 behind a valid token: the current password given to password change, account deletion or a second-factor change is wrong; the session stays."),
        Entry(
            .tokenInvalid, 401,
            title: LocalizedText(en: "Invalid sign-in", ko: "로그인 정보를 확인할 수 없어요"),
            detail: LocalizedText(
                en: "Your sign-in could not be verified, so please log in again.",
                ko: "인증 정보가 유효하지 않으니 다시 로그인해 주세요."),
            doc: "The access token is missing, not `Bearer`, malformed, signed by an unknown key or badly, for another issuer or audience, or without a proper `sub`/`sid`; or the refresh token is unknown (never issued, or its account or session is gone) or over 256 bytes."),
        Entry(
            .tokenExpired, 401,
            title: LocalizedText(en: "Sign-in expired", ko: "로그인이 만료되었어요"),
            detail: LocalizedText(
                en: "Your sign-in has expired, so please log in again.",
                ko: "로그인 유효 시간이 지났으니 다시 로그인해 주세요."),
            doc: "The access token's `exp` has passed (60 s of clock skew allowed); or the session has ended by its idle or absolute lifetime."),
        Entry(
            .refreshTokenReused, 401,
            title: LocalizedText(en: "Session ended", ko: "세션이 종료되었어요"),
            detail: LocalizedText(
                en: "A sign-in token was used twice, so this session was ended for your security.",
                ko: "같은 로그인 토큰이 두 번 사용되어 보안을 위해 세션을 종료했어요."),
            doc: "A refresh token that was used before came again after the grace window, or from another client within it: the whole session is revoked."),
        Entry(
            .sessionRevoked, 401,
            title: LocalizedText(en: "Signed out", ko: "로그아웃되었어요"),
            detail: LocalizedText(
                en: "This session has been signed out, so please log in again.",
                ko: "이 세션은 로그아웃되었으니 다시 로그인해 주세요."),
            doc: "The session behind the token was logged out, revoked or ended by a password change or reset, or its account was deleted."),
        Entry(
            .emailNotVerified, 403,
            title: LocalizedText(en: "Email not verified", ko: "이메일 인증이 필요해요"),
            detail: LocalizedText(
                en: "Verify your email address with the code we sent before logging in.",
                ko: "보내 드린 인증 코드로 이메일 주소를 인증한 뒤 로그인해 주세요."),
            doc: "At login, after a correct password: the address is not verified yet (or the sign-up still waits for its code)."),
        Entry(
            .notFound, 404,
            title: LocalizedText(en: "Not found", ko: "찾을 수 없어요"),
            detail: LocalizedText(en: "The requested resource does not exist.", ko: "요청한 항목이 존재하지 않아요."),
            doc: "No route has this path, the path is not in normal form, or (`DELETE /auth/sessions/{id}`) the caller has no live session with this id, or (`/admin/api/users/{id}`) no account has this id."),
        Entry(
            .methodNotAllowed, 405,
            title: LocalizedText(en: "Method not allowed", ko: "허용되지 않는 요청 방식이에요"),
            detail: LocalizedText(
                en: "This path does not accept this request method.",
                ko: "이 주소는 해당 요청 방식을 지원하지 않아요."),
            doc: "The path exists, but not with this method; see `Allow`."),
        Entry(
            .usernameTaken, 409,
            title: LocalizedText(en: "Nickname taken", ko: "이미 사용 중인 닉네임이에요"),
            detail: LocalizedText(
                en: "Another account already uses this nickname.",
                ko: "다른 계정이 이미 이 닉네임을 사용하고 있어요."),
            doc: "An account has the nickname or a look-alike of it, or another address's pending sign-up holds it."),
        Entry(
            .lengthRequired, 411,
            title: LocalizedText(en: "Length required", ko: "본문 길이가 필요해요"),
            detail: LocalizedText(
                en: "Send the request body with a Content-Length header; chunked uploads are not accepted.",
                ko: "요청 본문은 Content-Length 헤더와 함께 보내 주세요. 청크 방식 업로드는 받지 않아요."),
            doc: "The body came chunked (`Transfer-Encoding`); send it with `Content-Length`."),
        Entry(
            .payloadTooLarge, 413,
            title: LocalizedText(en: "Request too large", ko: "요청이 너무 커요"),
            detail: LocalizedText(
                en: "The request body is larger than the server accepts.",
                ko: "요청 본문이 서버가 받을 수 있는 크기를 넘었어요."),
            doc: "The declared body is over 64 KiB."),
        Entry(
            .unsupportedMediaType, 415,
            title: LocalizedText(en: "Unsupported media type", ko: "지원하지 않는 형식이에요"),
            detail: LocalizedText(
                en: "Send the request body as application/json.",
                ko: "요청 본문은 application/json 형식으로 보내 주세요."),
            doc: "A body that is not `application/json`."),
        Entry(
            .codeInvalid, 400,
            title: LocalizedText(en: "Incorrect code", ko: "인증 코드가 올바르지 않아요"),
            detail: LocalizedText(
                en: "Check the verification code in the email and try again.",
                ko: "이메일로 받은 인증 코드를 확인하고 다시 입력해 주세요."),
            doc: "The one-time code is wrong or there is none (for a reset: also no account); or the `email_verification_token` is unknown, used, or for another address. For the second factor: the authenticator code is wrong or was used, the recovery code is wrong or used, or the `mfa_token` is unknown or used."),
        Entry(
            .codeExpired, 400,
            title: LocalizedText(en: "Code expired", ko: "인증 코드가 만료되었어요"),
            detail: LocalizedText(
                en: "The verification code has expired, so please request a new one.",
                ko: "인증 코드의 유효 시간이 지났으니 새 코드를 요청해 주세요."),
            doc: "The one-time code, or the `email_verification_token`, has expired; or the `mfa_token` is older than 5 minutes (log in again)."),
        Entry(
            .tooManyAttempts, 429,
            title: LocalizedText(en: "Too many attempts", ko: "시도 횟수를 초과했어요"),
            detail: LocalizedText(
                en: "The code was entered wrongly too many times, so please request a new one.",
                ko: "인증 코드를 너무 많이 틀렸으니 새 코드를 요청해 주세요."),
            doc: "Too many wrong tries: the code (or the `mfa_token`, after 5 wrong codes) is spent; ask for a new one (log in again). No `Retry-After`."),
        Entry(
            .rateLimited, 429,
            title: LocalizedText(en: "Too many requests", ko: "요청이 너무 많아요"),
            detail: LocalizedText(en: "Please wait a moment before trying again.", ko: "잠시 기다린 뒤 다시 시도해 주세요."),
            doc: "Slow down, for `Retry-After` seconds: the per-address request limit, the account's login back-off, or a code resend limit."),
        Entry(
            .serviceUnavailable, 503,
            title: LocalizedText(en: "Service unavailable", ko: "서비스를 이용할 수 없어요"),
            detail: LocalizedText(
                en: "The service is temporarily unavailable, so please try again later.",
                ko: "일시적으로 서비스를 이용할 수 없으니 나중에 다시 시도해 주세요."),
            doc: "The database is unreachable, or the password-hashing queue is full; try again after `Retry-After`."),
        Entry(
            .internalError, 500,
            title: LocalizedText(en: "Internal error", ko: "서버 오류가 발생했어요"),
            detail: LocalizedText(
                en: "Something went wrong on our side, so please try again.",
                ko: "서버에서 예기치 않은 문제가 생겼으니 다시 시도해 주세요."),
            doc: "Something failed on the server; the body says no more, the log line says why."),
        Entry(
            .requestTimeout, 408,
            title: LocalizedText(en: "Request timeout", ko: "요청 시간이 초과되었어요"),
            detail: LocalizedText(
                en: "The request did not arrive in time, so the connection was closed.",
                ko: "요청이 제시간에 도착하지 않아 연결을 닫았어요."),
            doc: "The request head was not complete within the header timeout of its first byte (10 s), or the body not within 30 s of its head."),
        Entry(
            .uriTooLong, 414,
            title: LocalizedText(en: "Address too long", ko: "요청 주소가 너무 길어요"),
            detail: LocalizedText(
                en: "The request line or its query is longer than the server accepts.",
                ko: "요청 줄이나 쿼리가 서버가 받을 수 있는 길이를 넘었어요."),
            doc: "The request line is over 8 KiB, or the query has more than 100 parameters."),
        Entry(
            .headerFieldsTooLarge, 431,
            title: LocalizedText(en: "Headers too large", ko: "요청 헤더가 너무 커요"),
            detail: LocalizedText(
                en: "The request has more header lines or header bytes than the server accepts.",
                ko: "요청 헤더의 줄 수나 크기가 서버가 받을 수 있는 한도를 넘었어요."),
            doc: "More than 100 header lines, or more than 16 KiB of them."),
        Entry(
            .versionNotSupported, 505,
            title: LocalizedText(en: "HTTP version not supported", ko: "지원하지 않는 HTTP 버전이에요"),
            detail: LocalizedText(en: "Send the request over HTTP/1.1.", ko: "요청은 HTTP/1.1로 보내 주세요."),
            doc: "The request was not HTTP/1.x."),
        Entry(
            .mfaRequired, 403,
            title: LocalizedText(en: "Second factor needed", ko: "2단계 인증이 필요해요"),
            detail: LocalizedText(
                en: "Enter the 6-digit code from your authenticator app, or one of your recovery codes, to finish logging in.",
                ko: "로그인을 마치려면 인증 앱의 6자리 코드나 복구 코드 하나를 입력해 주세요."),
            doc: "At login, after a correct password: the account has a second factor. The problem has `mfa_token` and `methods`; answer with `POST /auth/mfa/verify`."),
        Entry(
            .mfaAlreadyEnabled, 409,
            title: LocalizedText(en: "Authenticator already on", ko: "인증 앱이 이미 켜져 있어요"),
            detail: LocalizedText(
                en: "Two-step verification is already on. Turn it off first to set up another authenticator app.",
                ko: "2단계 인증이 이미 켜져 있어요. 다른 인증 앱을 등록하려면 먼저 꺼 주세요."),
            doc: "An authenticator app is already on (enrol or confirm again); turn it off first."),
        Entry(
            .mfaNotEnabled, 409,
            title: LocalizedText(en: "Authenticator not on", ko: "인증 앱이 켜져 있지 않아요"),
            detail: LocalizedText(
                en: "Two-step verification is not on for this account, or its setup was not started.",
                ko: "이 계정은 2단계 인증이 켜져 있지 않거나 설정을 시작하지 않았어요."),
            doc: "No authenticator app is on (new recovery codes, turning it off), or none is being enrolled (confirm)."),
        Entry(
            .signUpSuperseded, 409,
            title: LocalizedText(en: "Sign-up replaced", ko: "가입 신청이 바뀌었어요"),
            detail: LocalizedText(
                en: "This sign-up was replaced by a newer one for this address; sign up again.",
                ko: "이 주소로 더 최근에 들어온 가입 신청이 이 신청을 대신했어요. 다시 가입해 주세요."),
            doc: "`POST /auth/email/verify`: the code was right, but the `signup_token` sent with it does not name the address's current pending sign-up (a newer sign-up of the address replaced it, or it is another address's), or none was sent and that sign-up is contested (it replaced another client's). Nothing was made, the code is spent and the pending sign-up dropped: sign up again."),
        Entry(
            .passkeyInvalid, 400, also: [401, 403],
            title: LocalizedText(en: "Passkey not accepted", ko: "패스키를 확인하지 못했어요"),
            detail: LocalizedText(
                en: "The passkey could not be verified for this service. Please try again.",
                ko: "이 서비스의 패스키로 확인되지 않았어요. 다시 시도해 주세요."),
            doc: "A passkey response failed WebAuthn's checks (origin, RP id, user verification, signature, counter, …): `400` at registration, `401` at login, where it also means that no account has the passkey, `403` as the proof of a sensitive change (`passkey_assertion`), where it also means a passkey the account does not have. The reply never says which check; the `passkey_refused` event does. Start again with new options."),
        Entry(
            .passkeyExists, 409,
            title: LocalizedText(en: "Passkey already added", ko: "이미 추가된 패스키예요"),
            detail: LocalizedText(en: "This passkey is already registered.", ko: "이 패스키는 이미 등록되어 있어요."),
            doc: "`POST /auth/passkeys/register`: the passkey (its credential id) is registered already, to this account or another."),
        Entry(
            .passkeyLimitReached, 409,
            title: LocalizedText(en: "Too many passkeys", ko: "패스키가 너무 많아요"),
            detail: LocalizedText(
                en: "This account has the most passkeys it may hold (20). Remove one first.",
                ko: "이 계정에 등록할 수 있는 패스키(20개)가 모두 찼어요. 먼저 하나를 삭제해 주세요."),
            doc: "`POST /auth/passkeys/register/options`: the account holds 20 passkeys; remove one first."),
        Entry(
            .challengeInvalid, 400,
            title: LocalizedText(en: "Passkey request not valid", ko: "패스키 요청이 올바르지 않아요"),
            detail: LocalizedText(
                en: "This passkey request is unknown or was already used. Please start again.",
                ko: "알 수 없거나 이미 사용된 패스키 요청이에요. 처음부터 다시 시도해 주세요."),
            doc: "A passkey response's challenge is unknown, was used already (each is single use, on every server), or was issued for the other ceremony or another account. Ask for new options."),
        Entry(
            .challengeExpired, 400,
            title: LocalizedText(en: "Passkey request expired", ko: "패스키 요청이 만료되었어요"),
            detail: LocalizedText(
                en: "The passkey request expired after 5 minutes. Please start again.",
                ko: "패스키 요청이 5분이 지나 만료되었어요. 처음부터 다시 시도해 주세요."),
            doc: "A passkey response's challenge is older than 5 minutes. Ask for new options."),
        Entry(
            .adminRequired, 403,
            title: LocalizedText(en: "Operators only", ko: "운영자만 쓸 수 있어요"),
            detail: LocalizedText(
                en: "This account is not an operator. The admin role is granted on the server's command line.",
                ko: "이 계정은 운영자가 아니에요. 운영자 권한은 서버의 명령줄에서만 줄 수 있어요."),
            doc: "`/admin/api/...`: the account is not an operator. The admin role is granted only on the server's command line (`account-server admin grant NICKNAME`)."),
        Entry(
            .secondFactorRequired, 403,
            title: LocalizedText(en: "Second factor needed", ko: "2단계 인증이 필요해요"),
            detail: LocalizedText(
                en: "Operators must log in with their second factor. Log in again with your authenticator app.",
                ko: "운영자는 2단계 인증으로 로그인해야 해요. 인증 앱으로 다시 로그인해 주세요."),
            doc: "`/admin/api/...`: the operator's access token was issued to a session opened with a password alone; its `amr` must name a second factor (`otp`, `recovery_code`, or a passkey's `mfa`). Log in again with the second factor."),
        Entry(
            .accountDisabled, 403,
            title: LocalizedText(en: "Account disabled", ko: "사용이 중지된 계정이에요"),
            detail: LocalizedText(
                en: "This account has been disabled by the service's operators. Contact support.",
                ko: "운영자가 이 계정의 사용을 중지했어요. 고객 지원에 문의해 주세요."),
            doc: "At login (or `POST /auth/mfa/verify`, or a verification that signs in), after a correct password: an operator disabled the account. Its sessions ended when it was disabled."),
        Entry(
            .profileRequired, 403,
            title: LocalizedText(en: "Choose a nickname", ko: "닉네임을 정해 주세요"),
            detail: LocalizedText(
                en: "Welcome! Choose a nickname and your MBTI type to finish signing up with Apple.",
                ko: "환영해요! Apple로 가입을 마치려면 닉네임과 MBTI 유형을 정해 주세요."),
            doc: "`POST /auth/apple`: Apple's user has no account yet. The problem has `continuation_token` (single use, 10 minutes), `expires_in` and `email` (the address Apple gave); finish with `POST /auth/apple/complete`."),
        Entry(
            .appleLinkRequired, 409,
            title: LocalizedText(en: "Account already exists", ko: "이미 있는 계정이에요"),
            detail: LocalizedText(
                en: "An account already uses this email address. Log in to it, then connect Apple from your profile.",
                ko: "이 이메일 주소를 쓰는 계정이 이미 있어요. 그 계정으로 로그인한 뒤 프로필에서 Apple을 연결해 주세요."),
            doc: "`POST /auth/apple` (or `/complete`): no account has this Apple user, but one has its address. Nothing was linked: log in to that account and link Apple from it."),
        Entry(
            .appleTokenInvalid, 401, also: [403],
            title: LocalizedText(en: "Apple sign-in not accepted", ko: "Apple 로그인을 확인하지 못했어요"),
            detail: LocalizedText(
                en: "Sign in with Apple could not be verified. Please try again.",
                ko: "Apple 로그인을 확인하지 못했어요. 다시 시도해 주세요."),
            doc: "An Apple identity token failed a check (signature, `kid`, `iss`, `aud`, `exp`/`iat`, nonce, `email_verified`, or it was accepted before); the reply never says which, the `apple_token_refused` event does. 403 where it proves a sensitive change of an account without a password (also: not its linked Apple ID, or older than 10 minutes)."),
        Entry(
            .appleAlreadyLinked, 409,
            title: LocalizedText(en: "Apple ID already connected", ko: "이미 연결된 Apple ID예요"),
            detail: LocalizedText(
                en: "This Apple ID is connected to another account, or this account to another Apple ID.",
                ko: "이 Apple ID는 다른 계정에 연결되어 있거나, 이 계정이 다른 Apple ID에 연결되어 있어요."),
            doc: "`POST /auth/apple/link`: the Apple ID is another account's, or this account has another one."),
        Entry(
            .lastSignInMethod, 409,
            title: LocalizedText(en: "Last way to log in", ko: "마지막 로그인 방법이에요"),
            detail: LocalizedText(
                en: "Apple is this account's only way to log in. Set a password or add a passkey first.",
                ko: "Apple이 이 계정의 유일한 로그인 방법이에요. 먼저 비밀번호를 설정하거나 패스키를 추가해 주세요."),
            doc: "`DELETE /auth/apple/link`: the account has no password and no passkey; unlinking Apple would leave no way to log in."),
        Entry(
            .appleNotConfigured, 404,
            title: LocalizedText(en: "Sign in with Apple unavailable", ko: "Apple로 로그인을 쓸 수 없어요"),
            detail: LocalizedText(
                en: "This server does not offer Sign in with Apple.",
                ko: "이 서버는 Apple로 로그인을 제공하지 않아요."),
            doc: "`/auth/apple…`: this server has no Sign in with Apple (no `--apple-client-id`)."),
        Entry(
            .cannotActOnSelf, 409,
            title: LocalizedText(en: "Not on your own account", ko: "내 계정에는 할 수 없어요"),
            detail: LocalizedText(
                en: "Operators cannot disable or delete their own account. Ask another operator.",
                ko: "운영자는 자기 계정을 중지하거나 삭제할 수 없어요. 다른 운영자에게 부탁해 주세요."),
            doc: "`/admin/api/users/{id}/disable` or `/delete` on the operator's own account."),
        Entry(
            .alreadyVerified, 409,
            title: LocalizedText(en: "Already verified", ko: "이미 인증된 주소예요"),
            detail: LocalizedText(
                en: "This account's email address is verified already; no code was sent.",
                ko: "이 계정의 이메일 주소는 이미 인증되었어요. 코드를 보내지 않았어요."),
            doc: "`/admin/api/users/{id}/resend-verification`: the account's address is verified already."),
        Entry(
            .emailTaken, 422, sentBy: .sdk,
            title: LocalizedText(en: "Email address taken", ko: "이미 사용 중인 이메일이에요"),
            detail: LocalizedText(en: "This email address is already in use.", ko: "이미 사용 중인 이메일이에요."),
            doc: "AccountKit's name for a `422 validation_failed` whose only error is `email` `taken`; the server never sends it."),
    ]

    /// Every field error code.
    public static let fieldEntries: [FieldEntry] = [
        FieldEntry(.required, doc: "Missing or empty."),
        FieldEntry(.tooShort, doc: "Shorter than the minimum (Unicode scalars after NFC)."),
        FieldEntry(.tooLong, doc: "Longer than the maximum."),
        FieldEntry(.invalidFormat, doc: "Characters or shape not allowed (a nickname of digits only, an address without a dotted domain, a code that is not 6 digits)."),
        FieldEntry(.invalidChoice, doc: "Not one of the allowed values (an unknown MBTI type, a code `purpose` other than `signup` and `verify`)."),
        FieldEntry(.mismatch, doc: "`password_confirmation` differs from `password`."),
        FieldEntry(.tooCommon, doc: "A password from the bundled list of common passwords."),
        FieldEntry(.tooSimilar, doc: "A password that contains the nickname or the email's local part (3 characters or more), ignoring case and width."),
        FieldEntry(.taken, doc: "A reserved nickname (or a look-alike of one); an email address that already has an account, only where the caller has proved they own it (sign-up with an `email_verification_token`)."),
        FieldEntry(.invisibleCharacter, doc: "A nickname with an invisible (Default_Ignorable) character: zero-width space or joiner, Hangul filler, variation selector, soft hyphen, bidi control."),
        FieldEntry(.mixedScript, doc: "A nickname mixing scripts beyond UTS #39's \"highly restrictive\" level (Cyrillic `а` in `admin`), or digits of two number systems; Latin with Hangul, Han or Japanese kana is fine."),
    ]
}
