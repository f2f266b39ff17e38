/// The texts of `account --help` and `account <command> --help`.
enum Help {
    static let general = """
        account: the terminal client of the MBTI Playground account server.

        Usage: account [--server URL] [--json] [--config-dir DIR] [--no-input] <command> [options]

        Commands:
        \(Command.allCases.map { "  " + $0.rawValue.padded(to: 10) + $0.summary }.joined(separator: "\n"))

        Global options:
          --server URL       the server (env ACCOUNT_SERVER; default http://localhost:8000)
          --json             print machine-readable JSON on standard output
          --config-dir DIR   where the session is kept (env ACCOUNT_CONFIG_DIR;
                             default $XDG_CONFIG_HOME/… or ~/.config/…)
          --no-input         never prompt: a missing value is a usage error
          -h, --help         show help (also: account <command> --help)

        Values not given as options are asked for on the terminal; passwords are read without echo.
        Exit status: 0 success, 1 refused by the server or not signed in, 2 usage error,
        3 server unreachable. Messages follow LANG / LC_ALL (ko: Korean, else English).
        """

    /// Help for one command.
    static func text(for command: Command) -> String {
        switch command {
        case .signup:
            """
            Usage: account signup [--username NAME] [--email EMAIL] [--mbti TYPE] [--password-stdin]

            Creates an account; the server mails a 6-digit code to the address. When prompting, asks for
            the code next, verifies the address and signs in. Otherwise it reports where the code went:
            finish with `account verify --email EMAIL --code CODE`.
              --username NAME    the nickname (2–20 letters, digits, _ and .)
              --email EMAIL      the email address
              --mbti TYPE        one of the 16 types (e.g. ENFP); asked as a numbered list otherwise
              --password-stdin   read the password from the first line of standard input (no prompts)
            """
        case .verify:
            """
            Usage: account verify [--email EMAIL] [--code CODE]

            Verifies an email address with the code mailed to it. Without --code, asks the server to
            mail a new code and then asks for it (with --no-input: only requests it).
            """
        case .login:
            """
            Usage: account login [--username NAME | --email EMAIL] [--password-stdin]

            Signs in and keeps the session in the config folder (a file only you can read).
              --username NAME    sign in with the nickname
              --email EMAIL      sign in with the email address
              --password-stdin   read the password from the first line of standard input (no prompts)
            """
        case .whoami:
            """
            Usage: account whoami [--json]

            Shows the signed-in user; with --json, the user object exactly as the API sends it.
            """
        case .logout:
            """
            Usage: account logout [--all]

            Signs out on the server and forgets the session here.
              --all   end every session of the account, on every device
            """
        case .sessions:
            """
            Usage: account sessions [--json]

            Lists the account's live sessions, newest first; `*` marks this one.
            """
        case .passwd:
            """
            Usage: account passwd [--password-stdin]

            Changes the password; every other session is signed out.
              --password-stdin   read the current password, then the new one, one per line of
                                 standard input (no prompts)
            """
        }
    }
}
