/// The commands of `account` and the options each accepts.
enum Command: String, CaseIterable, Sendable {
    case signup, verify, login, whoami, logout, sessions, passwd

    /// Options that take a value (`--email E`), besides the global ones.
    var valueOptions: Set<String> {
        switch self {
        case .signup: ["username", "email", "mbti"]
        case .verify: ["email", "code"]
        case .login: ["username", "email"]
        case .whoami, .logout, .sessions, .passwd: []
        }
    }

    /// Options that are switches (`--all`), besides the global ones.
    var flagOptions: Set<String> {
        switch self {
        case .signup, .login, .passwd: ["password-stdin"]
        case .logout: ["all"]
        case .verify, .whoami, .sessions: []
        }
    }

    /// One line for the command list in `account --help`.
    var summary: String {
        switch self {
        case .signup: "create an account, then verify its email with the mailed code"
        case .verify: "verify an email address with a mailed code (requests one if needed)"
        case .login: "sign in and keep the session"
        case .whoami: "show the signed-in user"
        case .logout: "sign out here (--all: everywhere) and forget the session"
        case .sessions: "list the account's sessions, marking this one"
        case .passwd: "change the password (other sessions are signed out)"
        }
    }
}

/// Options every command accepts.
enum GlobalOptions {
    /// Global options that take a value.
    static let values: Set<String> = ["server", "config-dir"]
    /// Global switches.
    static let flags: Set<String> = ["json", "help", "no-input"]
}
