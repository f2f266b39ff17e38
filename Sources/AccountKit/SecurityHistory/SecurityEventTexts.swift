import AccountAPI
import Foundation

/// What a security event says to its owner, in Korean and English: the screen's titles, and the
/// terminal's. A kind this client does not know gets a generic title, never an error.
public enum SecurityEventTexts {
    /// The history screen's title, and the profile's way to it.
    public static let screenTitle = LocalizedText(en: "Security history", ko: "보안 기록")
    /// What the screen says under its title.
    public static let screenFooter = LocalizedText(
        en: "Sign-ins, failed attempts and changes to this account's security in the last 90 days. Something you don't recognize? Change your password and log out everywhere.",
        ko: "최근 90일 동안의 로그인, 실패한 시도, 보안 설정 변경이에요. 모르는 기록이 있다면 비밀번호를 바꾸고 모든 기기에서 로그아웃해 주세요.")
    /// The button that fetches older events.
    public static let showOlder = LocalizedText(en: "Show older events", ko: "이전 기록 보기")
    /// What the screen says when there are none.
    public static let empty = LocalizedText(en: "No security events in the last 90 days.", ko: "최근 90일 동안 보안 기록이 없어요.")

    /// The event's title: "Signed in with a passkey", "Wrong password entered", …
    public static func title(_ event: SecurityEvent) -> LocalizedText {
        let detail = event.detail ?? [:]
        switch event.kind {
        case .loginSucceeded: return signedIn(method: detail["method"])
        case .loginFailed:
            return detail["check"] == "second_factor"
                ? LocalizedText(en: "Wrong verification code entered", ko: "잘못된 인증 코드가 입력됐어요")
                : LocalizedText(en: "Wrong password entered", ko: "잘못된 비밀번호가 입력됐어요")
        case .passwordChanged: return LocalizedText(en: "Password changed", ko: "비밀번호를 변경했어요")
        case .passwordReset: return LocalizedText(en: "Password reset with an email code", ko: "이메일 코드로 비밀번호를 재설정했어요")
        case .mfaEnabled: return LocalizedText(en: "Two-step verification turned on", ko: "2단계 인증을 켰어요")
        case .mfaDisabled: return LocalizedText(en: "Two-step verification turned off", ko: "2단계 인증을 껐어요")
        case .recoveryCodeUsed:
            guard let left = detail["left"] else { return LocalizedText(en: "Recovery code used", ko: "복구 코드를 사용했어요") }
            return LocalizedText(en: "Recovery code used (\(left) left)", ko: "복구 코드를 사용했어요 (\(left)개 남음)")
        case .recoveryCodesReplaced: return LocalizedText(en: "New recovery codes made", ko: "새 복구 코드를 만들었어요")
        case .passkeyAdded: return named(LocalizedText(en: "Passkey added", ko: "패스키를 추가했어요"), detail["name"])
        case .passkeyRemoved: return named(LocalizedText(en: "Passkey removed", ko: "패스키를 삭제했어요"), detail["name"])
        case .sessionEnded: return sessionsEnded(reason: detail["reason"], count: detail["count"].flatMap(Int.init) ?? 1)
        case .accountDisabled: return LocalizedText(en: "Account disabled by an administrator", ko: "관리자가 계정을 정지했어요")
        case .accountEnabled: return LocalizedText(en: "Account enabled again by an administrator", ko: "관리자가 계정 정지를 풀었어요")
        case .appleLinked: return LocalizedText(en: "Sign in with Apple linked", ko: "Apple로 로그인을 연결했어요")
        case .appleUnlinked: return LocalizedText(en: "Sign in with Apple unlinked", ko: "Apple로 로그인 연결을 해제했어요")
        case nil: return LocalizedText(en: "Account activity", ko: "계정 활동")
        }
    }

    /// Where it came from, for people: "MBTI Playground 1.2 · iPhone15,2 · iOS 17.4 · 192.0.2.7"; `nil` when unknown.
    public static func origin(_ event: SecurityEvent) -> String? {
        let parts = [event.deviceName, event.clientAddress].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Whether the owner should look twice: a failed attempt, a reused sign-in, the second factor
    /// turned off, the account disabled.
    public static func isWarning(_ event: SecurityEvent) -> Bool {
        switch event.kind {
        case .loginFailed, .mfaDisabled, .accountDisabled: true
        case .sessionEnded: event.detail?["reason"] == "refresh_token_reused"
        default: false
        }
    }

    private static func signedIn(method: String?) -> LocalizedText {
        switch method {
        case "totp": LocalizedText(en: "Signed in with an authenticator code", ko: "인증 앱 코드로 로그인했어요")
        case "recovery_code": LocalizedText(en: "Signed in with a recovery code", ko: "복구 코드로 로그인했어요")
        case "passkey": LocalizedText(en: "Signed in with a passkey", ko: "패스키로 로그인했어요")
        case "email_code": LocalizedText(en: "Signed in with an email code", ko: "이메일 코드로 로그인했어요")
        case "signup": LocalizedText(en: "Signed up and signed in", ko: "가입하고 로그인했어요")
        case "apple": LocalizedText(en: "Signed in with Apple", ko: "Apple로 로그인했어요")
        default: LocalizedText(en: "Signed in", ko: "로그인했어요")
        }
    }

    private static func sessionsEnded(reason: String?, count: Int) -> LocalizedText {
        switch reason {
        case "logout": LocalizedText(en: "Signed out", ko: "로그아웃했어요")
        case "logout_others":
            LocalizedText(en: count == 1 ? "Signed out on 1 other device" : "Signed out on \(count) other devices", ko: "다른 기기 \(count)대에서 로그아웃했어요")
        case "logout_all": LocalizedText(en: "Signed out everywhere", ko: "모든 기기에서 로그아웃했어요")
        case "ended": LocalizedText(en: "A session was ended", ko: "세션 하나를 종료했어요")
        case "password_changed", "password_reset", "mfa_enabled", "mfa_disabled":
            LocalizedText(
                en: count == 1 ? "1 other session ended by this change" : "\(count) other sessions ended by this change",
                ko: "이 변경으로 다른 세션 \(count)개가 종료됐어요")
        case "refresh_token_reused":
            LocalizedText(
                en: "A session was ended: its sign-in was used twice", ko: "로그인 정보가 두 번 사용되어 세션을 종료했어요")
        case "account_disabled": LocalizedText(en: "Sessions ended: the account was disabled", ko: "계정이 정지되어 세션이 종료됐어요")
        case "operator": LocalizedText(en: "Sessions ended by an administrator", ko: "관리자가 세션을 종료했어요")
        default: LocalizedText(en: "Sessions ended", ko: "세션이 종료됐어요")
        }
    }

    private static func named(_ text: LocalizedText, _ name: String?) -> LocalizedText {
        guard let name, !name.isEmpty else { return text }
        return LocalizedText(en: "\(text.en): \(name)", ko: "\(text.ko): \(name)")
    }
}
