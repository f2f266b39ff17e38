import AccountAPI

/// The second factor's sentences in Korean and English: the server's texts for codes speak of
/// emailed codes, and these steps are about an authenticator app and recovery codes.
enum SecondFactorTexts {
    /// Why the login's second-factor step is over (``AccountError/secondFactorChallengeEnded(_:)``).
    static func challengeEnded(_ code: ErrorCode) -> LocalizedText {
        switch code {
        case .codeExpired:
            LocalizedText(
                en: "This sign-in step expired after 5 minutes. Log in again with your password.",
                ko: "로그인 단계가 5분이 지나 만료되었어요. 비밀번호로 다시 로그인해 주세요.")
        case .tooManyAttempts:
            LocalizedText(
                en: "Too many wrong codes for this sign-in. Log in again with your password.",
                ko: "잘못된 코드를 너무 많이 입력했어요. 비밀번호로 다시 로그인해 주세요.")
        default:
            LocalizedText(
                en: "This sign-in step is over. Log in again with your password.",
                ko: "이 로그인 단계는 끝났어요. 비밀번호로 다시 로그인해 주세요.")
        }
    }

    static let wrongAuthenticatorCode = LocalizedText(
        en: "That code is not right. Enter the code your authenticator app shows now (and check that this device's time is set automatically).",
        ko: "코드가 올바르지 않아요. 인증 앱에 지금 표시된 코드를 입력해 주세요 (기기 시간이 자동으로 설정되어 있는지도 확인해 주세요).")
    static let wrongRecoveryCode = LocalizedText(
        en: "That recovery code is not right, or it was used already.",
        ko: "복구 코드가 올바르지 않거나 이미 사용되었어요.")
    static let wrongPassword = LocalizedText(en: "The password is not right.", ko: "비밀번호가 올바르지 않아요.")

    static func attemptsLeft(_ count: Int) -> LocalizedText {
        count == 1
            ? LocalizedText(en: "1 try left.", ko: "1번 더 시도할 수 있어요.")
            : LocalizedText(en: "\(count) tries left.", ko: "\(count)번 더 시도할 수 있어요.")
    }

    static let enterAuthenticatorCode = LocalizedText(
        en: "Enter the \(CodeRule.length)-digit code from your authenticator app.",
        ko: "인증 앱의 \(CodeRule.length)자리 코드를 입력해 주세요.")
    static let enterRecoveryCode = LocalizedText(
        en: "Enter a recovery code: \(RecoveryCodeRule.length) letters and digits, like abcde-12345.",
        ko: "복구 코드를 입력해 주세요. abcde-12345처럼 영문과 숫자 \(RecoveryCodeRule.length)자예요.")
    static let enterPassword = LocalizedText(en: "Enter your password.", ko: "비밀번호를 입력해 주세요.")

    static let authenticatorInstructions = LocalizedText(
        en: "Open your authenticator app and enter the \(CodeRule.length)-digit code it shows for this account.",
        ko: "인증 앱을 열고 이 계정에 표시된 \(CodeRule.length)자리 코드를 입력해 주세요.")
    static let recoveryInstructions = LocalizedText(
        en: "Enter one of the recovery codes you saved when you turned on two-step verification. Each one works once.",
        ko: "2단계 인증을 켤 때 저장한 복구 코드 중 하나를 입력해 주세요. 각 코드는 한 번만 쓸 수 있어요.")

    static let scanInstructions = LocalizedText(
        en: "Scan this QR code with your authenticator app, or type the setup key into it. Then enter the \(CodeRule.length)-digit code it shows.",
        ko: "인증 앱으로 이 QR 코드를 스캔하거나 설정 키를 직접 입력한 뒤, 앱에 표시된 \(CodeRule.length)자리 코드를 입력해 주세요.")
    static let saveRecoveryCodes = LocalizedText(
        en: "Save these recovery codes somewhere safe. If you lose your authenticator app, each one lets you log in once. They will not be shown again.",
        ko: "이 복구 코드를 안전한 곳에 보관해 주세요. 인증 앱을 잃어버렸을 때 코드 하나로 한 번 로그인할 수 있어요. 다시 보여 드리지 않아요.")
    static let confirmSaved = LocalizedText(
        en: "Confirm that you saved your recovery codes.", ko: "복구 코드를 저장했는지 확인해 주세요.")
    static let enrolmentEnded = LocalizedText(
        en: "This setup ended or was replaced. Start again.",
        ko: "설정이 끝났거나 다른 설정으로 바뀌었어요. 처음부터 다시 시작해 주세요.")

    static func status(on: Bool, recoveryCodesLeft: Int) -> LocalizedText {
        guard on else { return LocalizedText(en: "Off", ko: "꺼짐") }
        return recoveryCodesLeft == 1
            ? LocalizedText(en: "On · 1 recovery code left", ko: "켜짐 · 복구 코드 1개 남음")
            : LocalizedText(en: "On · \(recoveryCodesLeft) recovery codes left", ko: "켜짐 · 복구 코드 \(recoveryCodesLeft)개 남음")
    }

    static func fewRecoveryCodes(_ left: Int) -> LocalizedText {
        left == 0
            ? LocalizedText(
                en: "No recovery codes left: make a new set so you can still log in without your authenticator app.",
                ko: "남은 복구 코드가 없어요. 인증 앱 없이도 로그인할 수 있도록 새 복구 코드를 만들어 주세요.")
            : LocalizedText(
                en: "Only \(left) recovery codes left: make a new set.",
                ko: "복구 코드가 \(left)개만 남았어요. 새 복구 코드를 만들어 주세요.")
    }
}
