import AccountAPI

/// Sign in with Apple's sentences in Korean and English.
enum AppleTexts {
    static let linkRequired = LocalizedText(
        en: "An account already uses the email address of your Apple ID. Log in to it with your password or a passkey, then link Apple in your profile.",
        ko: "Apple ID의 이메일 주소를 쓰는 계정이 이미 있어요. 비밀번호나 패스키로 그 계정에 로그인한 뒤 프로필에서 Apple을 연결해 주세요.")
    static let signUpExpired = LocalizedText(
        en: "This sign-up with Apple expired after 10 minutes, or was finished already. Sign in with Apple again.",
        ko: "Apple로 가입하기가 10분이 지나 만료되었거나 이미 완료되었어요. Apple로 다시 로그인해 주세요.")
    static let completeInstructions = LocalizedText(
        en: "Welcome! Choose a nickname and your MBTI type to finish signing up.",
        ko: "환영해요! 닉네임과 MBTI 유형을 정하면 가입이 끝나요.")
    static let privateRelay = LocalizedText(
        en: "Apple forwards mail from this address to yours.",
        ko: "이 주소로 보낸 메일은 Apple이 회원님의 메일로 전달해요.")
    static let linked = LocalizedText(
        en: "Apple is linked: you can sign in with Apple now.", ko: "Apple을 연결했어요. 이제 Apple로 로그인할 수 있어요.")
    static let unlinked = LocalizedText(en: "Apple is unlinked.", ko: "Apple 연결을 해제했어요.")
    static let lastSignInMethod = LocalizedText(
        en: "Apple is your only way to log in. Set a password (Forgot your password? on the login screen) or add a passkey first.",
        ko: "Apple이 유일한 로그인 방법이에요. 먼저 비밀번호를 설정하거나(로그인 화면의 ‘비밀번호를 잊으셨나요?’) 패스키를 추가해 주세요.")
    static let alreadyLinked = LocalizedText(
        en: "This Apple ID is linked to another account, or this account to another Apple ID.",
        ko: "이 Apple ID는 다른 계정에 연결되어 있거나, 이 계정이 다른 Apple ID에 연결되어 있어요.")
    static let confirmWithApple = LocalizedText(
        en: "Your account has no password: confirm it is you with Apple.",
        ko: "계정에 비밀번호가 없어요. Apple로 본인임을 확인해 주세요.")
}
