import AccountAPI

/// The step-up's sentences in Korean and English: what a change asks the person to prove, and
/// what was missing when the server said so.
enum StepUpTexts {
    static let confirmWithPassword = LocalizedText(
        en: "Enter your password to confirm it is you.", ko: "본인 확인을 위해 비밀번호를 입력해 주세요.")
    static let confirmWithPasswordAndCode = LocalizedText(
        en: "Enter your password and a code from your authenticator app to confirm it is you.",
        ko: "본인 확인을 위해 비밀번호와 인증 앱 코드를 입력해 주세요.")
    static let confirmWithPasskey = LocalizedText(
        en: "Your account has a passkey: confirm it is you with one of your passkeys.",
        ko: "계정에 패스키가 있어요. 패스키로 본인임을 확인해 주세요.")
    static let passkeyRequired = LocalizedText(
        en: "Your account has a passkey, so a change like this needs one of your passkeys rather than the password.",
        ko: "패스키가 있는 계정이라 이 변경은 비밀번호 대신 패스키로 확인해야 해요.")
    static let appleRequired = LocalizedText(
        en: "Your account has no password: confirm it is you with Apple.", ko: "계정에 비밀번호가 없어요. Apple로 본인임을 확인해 주세요.")
    static let secondFactorRequired = LocalizedText(
        en: "Two-step verification is on: enter a code from your authenticator app, or a recovery code.",
        ko: "2단계 인증이 켜져 있어요. 인증 앱의 코드나 복구 코드를 입력해 주세요.")
    static let passwordAndCodeRequired = LocalizedText(
        en: "Enter your password and a code from your authenticator app.", ko: "비밀번호와 인증 앱의 코드를 입력해 주세요.")
    static let unavailable = LocalizedText(
        en: "Your account confirms changes like this with a passkey or Apple, which this app does not offer here.",
        ko: "이 계정은 패스키나 Apple로 본인 확인을 해요. 이 앱에서는 그 방법을 쓸 수 없어요.")

    static let sameAsCurrent = LocalizedText(
        en: "The new password is the same as the current one; choose another.", ko: "새 비밀번호가 현재 비밀번호와 같아요. 다른 비밀번호를 정해 주세요.")
    static let passwordChanged = LocalizedText(
        en: "Your password is changed. Other devices were signed out.", ko: "비밀번호를 바꿨어요. 다른 기기는 로그아웃되었어요.")
    static let deleteInstructions = LocalizedText(
        en: "Deleting your account removes your profile, sessions, passkeys and security history for good. It cannot be undone.",
        ko: "계정을 삭제하면 프로필, 세션, 패스키, 보안 기록이 모두 지워지고 되돌릴 수 없어요.")

    /// What the person should give, for a server that said `missing` was missing.
    static func missing(_ missing: MissingProof) -> LocalizedText {
        if missing.contains(.passkey) { return passkeyRequired }
        if missing.contains(.apple) { return appleRequired }
        if missing.contains(.password) { return missing.contains(.secondFactor) ? passwordAndCodeRequired : SecondFactorTexts.enterPassword }
        return secondFactorRequired
    }
}
