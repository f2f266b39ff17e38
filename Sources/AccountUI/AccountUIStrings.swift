#if canImport(SwiftUI)
import AccountAPI

/// The screens' own words in English and Korean, keyed by the client's ``Language``.
///
/// Field errors and server messages come from AccountKit's models already in that language; this
/// table holds only titles, labels and button names.
///
/// ```swift
/// Text(AccountUIStrings.text(.logIn, .ko))   // "로그인"
/// ```
public enum AccountUIStrings {
    /// A word or phrase of the screens.
    public enum Key: String, CaseIterable, Sendable {
        case logIn, signUp, forgotPassword, noAccount, identifier, password, passwordAgain, newPassword
        case nickname, email, code, mbti, chooseMBTI, createAccount, sendCode, verify, resend
        case changeEmail, cancel, cancelSignUpTitle, cancelSignUpMessage, discard, keepEditing
        case profile, verified, notVerified, edit, save, logOut, logOutEverywhere, logOutEverywhereMessage
        case sessions, thisDevice, unknownDevice, revoke, lastUsed, loading, resetPassword, setPassword
        case passwordChanged, codeSentTo, emailCodeTitle, verifyEmailHint, submitHint
    }

    /// The text of `key` in `language`.
    public static func text(_ key: Key, _ language: Language) -> String {
        let pair = pairs(key)
        return language == .ko ? pair.ko : pair.en
    }

    /// "Resend in 42 s", in `language`.
    public static func resendIn(_ seconds: Int, _ language: Language) -> String {
        language == .ko ? "\(seconds)초 후 다시 보내기" : "Resend in \(seconds) s"
    }

    // A switch, not a dictionary, so a key without words does not compile.
    private static func pairs(_ key: Key) -> (en: String, ko: String) {
        switch key {
        case .logIn: ("Log in", "로그인")
        case .signUp: ("Sign up", "회원가입")
        case .forgotPassword: ("Forgot your password?", "비밀번호를 잊으셨나요?")
        case .noAccount: ("New here? Create an account", "처음이신가요? 계정 만들기")
        case .identifier: ("Nickname or email", "닉네임 또는 이메일")
        case .password: ("Password", "비밀번호")
        case .passwordAgain: ("Password again", "비밀번호 확인")
        case .newPassword: ("New password", "새 비밀번호")
        case .nickname: ("Nickname", "닉네임")
        case .email: ("Email", "이메일")
        case .code: ("6-digit code", "6자리 인증 코드")
        case .mbti: ("MBTI", "MBTI")
        case .chooseMBTI: ("Choose…", "선택하세요…")
        case .createAccount: ("Create account", "계정 만들기")
        case .sendCode: ("Send code", "인증 코드 보내기")
        case .verify: ("Verify", "인증하기")
        case .resend: ("Send a new code", "새 코드 보내기")
        case .changeEmail: ("Use another address", "다른 주소 사용하기")
        case .cancel: ("Cancel", "취소")
        case .cancelSignUpTitle: ("Cancel sign-up?", "회원가입을 취소할까요?")
        case .cancelSignUpMessage: ("What you entered will be lost.", "입력한 내용이 사라져요.")
        case .discard: ("Cancel sign-up", "회원가입 취소")
        case .keepEditing: ("Keep editing", "계속 입력하기")
        case .profile: ("Profile", "프로필")
        case .verified: ("Verified", "인증됨")
        case .notVerified: ("Not verified", "인증 안 됨")
        case .edit: ("Edit", "편집")
        case .save: ("Save", "저장")
        case .logOut: ("Log out", "로그아웃")
        case .logOutEverywhere: ("Log out everywhere", "모든 기기에서 로그아웃")
        case .logOutEverywhereMessage: ("Every device signed in to this account will be logged out.", "이 계정으로 로그인한 모든 기기에서 로그아웃돼요.")
        case .sessions: ("Signed-in devices", "로그인한 기기")
        case .thisDevice: ("This device", "이 기기")
        case .unknownDevice: ("Unknown device", "알 수 없는 기기")
        case .revoke: ("Log out this device", "이 기기 로그아웃")
        case .lastUsed: ("Last used", "마지막 사용")
        case .loading: ("Loading", "불러오는 중")
        case .resetPassword: ("Reset password", "비밀번호 재설정")
        case .setPassword: ("Set new password", "새 비밀번호 설정")
        case .passwordChanged: ("Your password is changed. Log in with the new one.", "비밀번호가 바뀌었어요. 새 비밀번호로 로그인하세요.")
        case .codeSentTo: ("We sent a code to", "인증 코드를 보냈어요:")
        case .emailCodeTitle: ("Verify your email", "이메일 인증")
        case .verifyEmailHint: ("Enter the code from the email.", "이메일로 받은 코드를 입력하세요.")
        case .submitHint: ("Enabled when every field is filled in correctly.", "모든 항목을 올바르게 입력하면 누를 수 있어요.")
        }
    }
}
#endif
