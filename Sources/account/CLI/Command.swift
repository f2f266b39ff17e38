import AccountAPI

/// The commands of `account` and the options each accepts.
enum Command: String, CaseIterable, Sendable {
    case signup, verify, login, whoami, logout, sessions, passwd, mfa, history

    /// The words that may follow the command (`account mfa enable`); the first is the default.
    var subcommands: [String] {
        self == .mfa ? ["status", "enable", "disable", "codes"] : []
    }

    /// Options that take a value (`--email E`), besides the global ones.
    var valueOptions: Set<String> {
        switch self {
        case .signup: ["username", "email", "mbti"]
        case .verify: ["email", "code"]
        case .login: ["username", "email", "code", "recovery-code"]
        case .passwd, .mfa: ["code", "recovery-code"]
        case .whoami, .logout, .sessions: []
        case .history: ["limit"]
        }
    }

    /// Options that are switches (`--all`), besides the global ones.
    var flagOptions: Set<String> {
        switch self {
        case .signup, .login, .passwd, .mfa: ["password-stdin"]
        case .verify: ["resend"]
        case .logout: ["all"]
        case .whoami, .sessions: []
        case .history: ["all"]
        }
    }

    /// One line for the command list in `account --help`.
    func summary(_ language: Language) -> String {
        let ko = language == .ko
        switch self {
        case .signup: return ko ? "계정을 만들고 메일로 받은 코드로 이메일을 인증해요" : "create an account, then verify its email with the mailed code"
        case .verify: return ko ? "메일로 받은 코드로 이메일 주소를 인증해요 (--resend: 새 코드)" : "verify an email address with the mailed code (--resend: a new code)"
        case .login: return ko ? "로그인하고 세션을 보관해요" : "sign in and keep the session"
        case .whoami: return ko ? "로그인한 사용자를 보여줘요" : "show the signed-in user"
        case .logout: return ko ? "이 기기에서 로그아웃하고 세션을 지워요 (--all: 모든 기기)" : "sign out here (--all: everywhere) and forget the session"
        case .sessions: return ko ? "계정의 세션을 보여줘요 (이 기기에 표시)" : "list the account's sessions, marking this one"
        case .passwd: return ko ? "비밀번호를 바꿔요 (다른 세션은 로그아웃돼요)" : "change the password (other sessions are signed out)"
        case .mfa: return ko ? "2단계 인증(인증 앱 코드)을 켜고 끄거나 복구 코드를 새로 받아요" : "turn two-step verification (authenticator codes) on or off, or get new recovery codes"
        case .history: return ko ? "계정의 보안 기록(로그인, 실패한 시도, 보안 설정 변경)을 보여줘요" : "show the account's security history (sign-ins, failed attempts, changes)"
        }
    }
}

/// Options every command accepts.
enum GlobalOptions {
    /// Global options that take a value.
    static let values: Set<String> = ["server", "config-dir"]
    /// Global switches.
    static let flags: Set<String> = ["json", "help", "no-input", "version"]
}
