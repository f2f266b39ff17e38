import AccountAPI

/// The texts of `account --help` and `account <command> --help`, in English and Korean.
enum Help {
    static func general(_ language: Language) -> String {
        let commands = Command.allCases.map { "  " + $0.rawValue.padded(to: 10) + $0.summary(language) }.joined(separator: "\n")
        switch language {
        case .en:
            return """
                account \(Version.number): the terminal client of the MBTI Playground account server.

                Usage: account [--server URL] [--json] [--config-dir DIR] [--no-input] <command> [options]

                Commands:
                \(commands)

                Global options:
                  --server URL       the server (env ACCOUNT_SERVER; default http://localhost:8000)
                  --json             print machine-readable JSON on standard output, errors too
                  --config-dir DIR   where the session is kept (env ACCOUNT_CONFIG_DIR;
                                     default $XDG_CONFIG_HOME/mbti-playground or $HOME/.config/mbti-playground)
                  --no-input         never prompt: a missing value is a usage error
                  --version          print the version
                  -h, --help         show help (also: account <command> --help)

                Values not given as options are asked for on the terminal, each checked as it is typed;
                passwords are read without echo. Times are shown in the local time zone.
                Exit status: 0 success, 1 refused by the server or not signed in, 2 usage error,
                3 server unreachable. Messages follow LANG / LC_ALL (ko: Korean, else English).
                """
        case .ko:
            return """
                account \(Version.number): MBTI Playground 계정 서버의 터미널 클라이언트예요.

                사용법: account [--server URL] [--json] [--config-dir 폴더] [--no-input] <명령> [옵션]

                명령:
                \(commands)

                공통 옵션:
                  --server URL       서버 주소 (환경 변수 ACCOUNT_SERVER, 기본값 http://localhost:8000)
                  --json             결과와 오류를 표준 출력에 JSON으로 보여줘요
                  --config-dir 폴더  세션을 보관할 폴더 (환경 변수 ACCOUNT_CONFIG_DIR, 기본값
                                     $XDG_CONFIG_HOME/mbti-playground 또는 $HOME/.config/mbti-playground)
                  --no-input         묻지 않아요: 빠진 값은 사용법 오류예요
                  --version          버전을 보여줘요
                  -h, --help         도움말 (account <명령> --help 도 돼요)

                옵션으로 주지 않은 값은 터미널에서 묻고, 입력하는 대로 확인해요. 비밀번호는 화면에
                보이지 않아요. 시간은 이 컴퓨터의 시간대로 보여줘요.
                종료 코드: 0 성공, 1 서버가 거절했거나 로그인하지 않음, 2 사용법 오류, 3 서버에 연결할 수 없음.
                메시지 언어는 LANG / LC_ALL을 따라요 (ko: 한국어, 그 밖에는 영어).
                """
        }
    }

    /// Help for one command.
    static func text(for command: Command, _ language: Language) -> String {
        language == .ko ? korean(command) : english(command)
    }

    private static func english(_ command: Command) -> String {
        switch command {
        case .signup:
            """
            Usage: account signup [--username NAME] [--email EMAIL] [--mbti TYPE] [--password-stdin]

            Creates an account; the server mails a 6-digit code to the address. Each answer is checked
            as it is typed and asked again when it breaks a rule. When prompting, asks for the code next
            (again after a wrong one), verifies the address and signs in (the code does: the password
            is not kept). Otherwise it reports where the code went: finish with
            `account verify --email EMAIL --code CODE`.
              --username NAME    the nickname (2–20 letters, digits, _ and .)
              --email EMAIL      the email address
              --mbti TYPE        one of the 16 types (e.g. ENFP); asked as a numbered list otherwise
              --password-stdin   read the password from the first line of standard input (no prompts)
            """
        case .verify:
            """
            Usage: account verify [--email EMAIL] [--code CODE] [--resend]

            Verifies an email address with the code mailed to it (at sign-up); a sign-up made in the
            last 30 minutes becomes its account and is signed in. Asks for the code when --code is
            not given, and again after a wrong one; a new code is mailed only with --resend, or when
            you leave the code empty and say yes.
              --email EMAIL      the address to verify
              --code CODE        the 6-digit code from the email
              --resend           mail a new code first (with --no-input and no --code: only that)
            """
        case .login:
            """
            Usage: account login [--username NAME | --email EMAIL] [--password-stdin]
                                 [--code CODE | --recovery-code CODE]

            Signs in and keeps the session in the config folder (a file only you can read). When the
            account has two-step verification on, asks for the authenticator app's code (or a
            recovery code), again after a wrong one; scripts give it with --code or --recovery-code.
              --username NAME       sign in with the nickname
              --email EMAIL         sign in with the email address
              --password-stdin      read the password from the first line of standard input (no prompts)
              --code CODE           the 6-digit code from the authenticator app, if one is needed
              --recovery-code CODE  one of the recovery codes instead (each works once)
            """
        case .whoami:
            """
            Usage: account whoami [--json]

            Shows the signed-in user; with --json, the user object exactly as the API sends it.
            """
        case .logout:
            """
            Usage: account logout [--all]

            Signs out on the server and forgets the session here (nothing to do when signed out).
              --all   end every session of the account, on every device
            """
        case .sessions:
            """
            Usage: account sessions [--json]

            Lists the account's live sessions, newest first, in local time; `*` marks this one.
            """
        case .passwd:
            """
            Usage: account passwd [--password-stdin] [--code CODE | --recovery-code CODE]

            Changes the password; every other session is signed out. The new password is checked
            against the rules before it is sent and must differ from the current one. With
            two-step verification on, the authenticator app's code is needed too (asked for, or
            --code / --recovery-code). An account that proves its changes with a passkey (it holds
            one and two-step verification is off) or with Apple (it has no password) makes them in
            the app: the terminal says so before asking anything.
              --password-stdin      read the current password, then the new one, one per line of
                                    standard input (no prompts)
              --code CODE           the 6-digit code from the authenticator app
              --recovery-code CODE  one of the recovery codes instead
            """
        case .mfa:
            """
            Usage: account mfa [status | enable | disable | codes] [options]

            Two-step verification: after the password, logins need the 6-digit code of an
            authenticator app (Google Authenticator, 1Password, …), or one of ten single-use
            recovery codes. Turning it on or off signs out every other session.
              status    whether it is on, and how many recovery codes are left (the default)
              enable    asks for the password, prints a QR code and the secret for the app, asks for
                        the app's code and prints the recovery codes. For scripts, in two calls:
                        with --password-stdin (or --no-input) it prints the secret (--json:
                        "secret", "otpauth_uri") and stops; then --code CODE confirms it
              disable   turns it off: the password and a code or a recovery code
              codes     a new set of recovery codes (the old set stops working): the password and
                        the app's code
            Each needs the password, as passwd does; an account that proves its changes with a
            passkey or Apple makes them in the app.
            Options:
              --password-stdin      read the password from the first line of standard input
              --code CODE           the authenticator app's 6-digit code
              --recovery-code CODE  a recovery code (disable only)
            """
        case .history:
            """
            Usage: account history [--limit N] [--all] [--json]

            Shows the account's security history, newest first, in local time: sign-ins with their
            device and address, failed attempts (`!`), password and two-step verification changes,
            passkeys, and sessions ended. Kept 90 days on the server.
              --limit N   events to show, 1 to 100 (default 20)
              --all       every event kept, page after page
              --json      the events exactly as the API sends them ({"events": [...], "next": ...})
            """
        }
    }

    private static func korean(_ command: Command) -> String {
        switch command {
        case .signup:
            """
            사용법: account signup [--username 닉네임] [--email 이메일] [--mbti 유형] [--password-stdin]

            계정을 만들어요. 서버가 이메일 주소로 6자리 인증 코드를 보내요. 답은 입력하는 대로 규칙에
            맞는지 확인하고, 맞지 않으면 다시 물어요. 물어볼 수 있으면 이어서 코드를 묻고(틀리면 다시),
            이메일을 인증한 뒤 로그인해요. 아니면 코드를 보낸 곳을 알려줘요:
            `account verify --email 이메일 --code 코드`로 마무리하세요.
              --username 닉네임  닉네임 (2–20자의 글자, 숫자, _ 와 .)
              --email 이메일     이메일 주소
              --mbti 유형        16가지 유형 중 하나 (예: ENFP); 없으면 번호 목록으로 물어요
              --password-stdin   표준 입력의 첫 줄을 비밀번호로 읽어요 (묻지 않아요)
            """
        case .verify:
            """
            사용법: account verify [--email 이메일] [--code 코드] [--resend]

            메일로 받은 코드(가입할 때 보낸 코드)로 이메일 주소를 인증해요. 30분 안에 한 가입이면
            계정이 만들어지고 바로 로그인돼요. --code가 없으면 코드를 묻고, 틀리면 다시 물어요.
            새 코드는 --resend를 주거나, 코드를 비워 두고 새 코드를 받겠다고 답할 때만 보내요.
              --email 이메일     인증할 주소
              --code 코드        메일로 받은 6자리 코드
              --resend           먼저 새 코드를 보내요 (--no-input이고 --code가 없으면 보내기만 해요)
            """
        case .login:
            """
            사용법: account login [--username 닉네임 | --email 이메일] [--password-stdin]
                                  [--code 코드 | --recovery-code 코드]

            로그인하고 세션을 설정 폴더에 보관해요 (나만 읽을 수 있는 파일). 2단계 인증이 켜진
            계정이면 인증 앱의 코드(또는 복구 코드)를 묻고, 틀리면 다시 물어요. 스크립트에서는
            --code나 --recovery-code로 주세요.
              --username 닉네임     닉네임으로 로그인해요
              --email 이메일        이메일 주소로 로그인해요
              --password-stdin      표준 입력의 첫 줄을 비밀번호로 읽어요 (묻지 않아요)
              --code 코드           필요할 때 인증 앱의 6자리 코드
              --recovery-code 코드  코드 대신 복구 코드 하나 (각각 한 번만 쓸 수 있어요)
            """
        case .whoami:
            """
            사용법: account whoami [--json]

            로그인한 사용자를 보여줘요. --json이면 API가 보내는 사용자 객체를 그대로 보여줘요.
            """
        case .logout:
            """
            사용법: account logout [--all]

            서버에서 로그아웃하고 이 컴퓨터의 세션을 지워요 (로그인하지 않았으면 할 일이 없어요).
              --all   모든 기기에서 이 계정의 세션을 끝내요
            """
        case .sessions:
            """
            사용법: account sessions [--json]

            계정의 세션을 최근 것부터 이 컴퓨터의 시간으로 보여줘요. `*`는 이 기기예요.
            """
        case .passwd:
            """
            사용법: account passwd [--password-stdin] [--code 코드 | --recovery-code 코드]

            비밀번호를 바꿔요. 다른 세션은 모두 로그아웃돼요. 새 비밀번호는 보내기 전에 규칙에
            맞는지 확인하고, 현재 비밀번호와 달라야 해요. 2단계 인증이 켜져 있으면 인증 앱의
            코드도 필요해요 (묻거나, --code / --recovery-code). 패스키로 본인 확인을 하는 계정(패스키가
            있고 2단계 인증이 꺼져 있음)이나 Apple로 확인하는 계정(비밀번호 없음)은 앱에서 바꿔야 해요.
            터미널은 아무것도 묻기 전에 그렇게 알려 줘요.
              --password-stdin      표준 입력에서 현재 비밀번호, 새 비밀번호를 한 줄씩 읽어요 (묻지 않아요)
              --code 코드           인증 앱의 6자리 코드
              --recovery-code 코드  코드 대신 복구 코드 하나
            """
        case .mfa:
            """
            사용법: account mfa [status | enable | disable | codes] [옵션]

            2단계 인증: 비밀번호 다음에 인증 앱(Google Authenticator, 1Password 등)의 6자리
            코드나, 한 번씩 쓸 수 있는 복구 코드 10개 중 하나가 있어야 로그인돼요. 켜거나 끄면
            다른 기기의 세션은 모두 로그아웃돼요.
              status    켜져 있는지, 복구 코드가 몇 개 남았는지 보여줘요 (기본)
              enable    비밀번호를 묻고, 인증 앱용 QR 코드와 비밀 키를 보여준 뒤, 앱의 코드를 묻고
                        복구 코드를 보여줘요. 스크립트에서는 두 번에 나눠서: --password-stdin(또는
                        --no-input)이면 비밀 키를 보여주고 멈춰요 (--json: "secret", "otpauth_uri").
                        그다음 --code 코드로 마무리해요
              disable   꺼요: 비밀번호와 코드 또는 복구 코드
              codes     복구 코드를 새로 받아요 (예전 코드는 못 써요): 비밀번호와 앱의 코드
            모두 passwd처럼 비밀번호가 필요해요. 패스키나 Apple로 본인 확인을 하는 계정은 앱에서 바꿔요.
            옵션:
              --password-stdin      표준 입력의 첫 줄을 비밀번호로 읽어요
              --code 코드           인증 앱의 6자리 코드
              --recovery-code 코드  복구 코드 (disable만)
            """
        case .history:
            """
            사용법: account history [--limit 개수] [--all] [--json]

            계정의 보안 기록을 최근 것부터 이 컴퓨터의 시간으로 보여줘요: 기기와 주소가 담긴 로그인,
            실패한 시도(`!`), 비밀번호와 2단계 인증 변경, 패스키, 종료된 세션. 서버에 90일 동안 남아요.
              --limit 개수  보여줄 기록 수, 1–100 (기본 20)
              --all         남아 있는 기록 전부를 페이지마다 이어서
              --json        API가 보내는 그대로 ({"events": [...], "next": ...})
            """
        }
    }
}
