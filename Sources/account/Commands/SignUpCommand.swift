import AccountAPI
import AccountKit

/// `account signup`: details first. At a terminal every answer is checked with the shared rules as
/// it is typed and asked again; what the server refuses (a taken nickname) is asked again too; then
/// the mailed code is asked for and verified, which signs the new account in (the password is not
/// kept once the sign-up is sent; the sign-up's token is, in the credentials file, so that a later
/// `account verify` signs in too). When a newer sign-up of the address replaced this one, the code
/// is refused: the other answers stay, and the password is asked again to sign up again.
enum SignUpCommand {
    /// The answers, as they stand.
    struct Answers {
        var username: String
        var email: String
        var password: String
        var mbti: MBTI

        var request: SignUpRequest {
            SignUpRequest(username: username, email: email, password: password, passwordConfirmation: password, mbti: mbti)
        }
    }

    static func run(_ context: Context) async throws {
        // The answers, the password with them, live only until the sign-up is accepted.
        var (accepted, details, rules) = try await signUp(context)
        while true {
            do {
                return try await finish(accepted, rules, context)
            } catch AccountError.conflict(let code) where code == .signUpSuperseded && context.mayPrompt {
                // Someone signed the address up again since: this sign-up is gone. Same details, new password.
                context.console.err(Messages.detail(code, context.language))
                var answers = details
                answers.password = try askPassword(context, rules, username: details.username, email: details.email)
                (accepted, details) = try await submit(answers, rules, context)
            }
        }
    }

    /// Asks (or reads) the answers and sends them until the server accepts them; returns the
    /// reply, the answers as sent but without the password, and the rules.
    private static func signUp(_ context: Context) async throws -> (SignUpAccepted, Answers, FormRules) {
        let (answers, rules): (Answers, FormRules)
        if context.mayPrompt {
            // Before anything is typed: the server's limits, or "cannot reach the server" at once.
            rules = try await context.rules()
            answers = try ask(context, rules)
        } else {
            (answers, rules) = try await givenOptions(context)
        }
        let (accepted, details) = try await submit(answers, rules, context)
        return (accepted, details, rules)
    }

    /// Everything from options and standard input (`--password-stdin`, `--no-input`): what is
    /// missing is a usage error before any request; what breaks a rule is refused like the server would.
    private static func givenOptions(_ context: Context) async throws -> (Answers, FormRules) {
        guard let username = context.invocation.value("username") else { throw context.missing("username") }
        guard let email = context.invocation.value("email") else { throw context.missing("email") }
        let mbti = try context.mbti()
        let password = try context.password(prompt: "")
        let rules = try await context.rules()
        let problems: [(String, [FieldErrorCode])] = [
            ("username", rules.username(username)), ("email", rules.email(email)),
            ("password", rules.password(password, username: username, email: email)), ("mbti", rules.mbti(mbti)),
        ]
        let fields = problems.filter { !$0.1.isEmpty }.reduce(into: [String: [FieldError]]()) { fields, problem in
            fields[problem.0] = problem.1.map { FieldError(code: $0, message: rules.message($0, field: problem.0, context.language)) }
        }
        guard fields.isEmpty else { throw AccountError.invalidInput(fields) }
        return (Answers(username: username, email: email, password: password, mbti: mbti), rules)
    }

    /// Asks for each value in turn, each checked as it is typed (options count as first answers).
    private static func ask(_ context: Context, _ rules: FormRules) throws(UsageError) -> Answers {
        let username = try askUsername(context, rules, again: false)
        let email = try askEmail(context, rules, again: false)
        let password = try askPassword(context, rules, username: username, email: email)
        return Answers(username: username, email: email, password: password, mbti: try context.mbti(rules.mbtiTypes))
    }

    /// Sends the sign-up through the session manager, which keeps its token for the code; at a
    /// terminal, a field the server refuses is asked again and sent again. Returns the reply and
    /// the answers that made it, without the password.
    private static func submit(_ first: Answers, _ rules: FormRules, _ context: Context) async throws -> (SignUpAccepted, Answers) {
        var answers = first
        let manager = context.sessionManager()
        while true {
            do {
                switch try await manager.signUp(answers.request) {
                case .codeSent(let accepted):
                    answers.password = ""
                    return (accepted, answers)
                case .signedIn:
                    // Only a sign-up with a verification token answers this way, and this one has none.
                    throw AccountError.undecodableReply(status: 201)
                }
            } catch let error as AccountError where context.mayPrompt && !error.refusedFields.isEmpty {
                context.console.err(Failure.of(error, server: context.settings.server, context.language).text)
                let fields = error.refusedFields
                if fields.contains("username") { answers.username = try askUsername(context, rules, again: true) }
                if fields.contains("email") { answers.email = try askEmail(context, rules, again: true) }
                if fields.contains("password") || fields.contains("password_confirmation") {
                    answers.password = try askPassword(context, rules, username: answers.username, email: answers.email)
                }
                if fields.contains("mbti") { answers.mbti = try context.mbti(rules.mbtiTypes) }
            }
        }
    }

    private static func askUsername(_ context: Context, _ rules: FormRules, again: Bool) throws(UsageError) -> String {
        try context.checkedValue("username", field: "username", prompt: context.say("Nickname: ", "닉네임: "), askAgain: again) {
            context.problem(rules.username($0), field: "username", rules)
        }
    }

    private static func askEmail(_ context: Context, _ rules: FormRules, again: Bool) throws(UsageError) -> String {
        try context.checkedValue("email", field: "email", prompt: context.say("Email: ", "이메일: "), askAgain: again) {
            context.problem(rules.email($0), field: "email", rules)
        }
    }

    private static func askPassword(_ context: Context, _ rules: FormRules, username: String, email: String) throws(UsageError) -> String {
        try context.password(
            prompt: context.say("Password: ", "비밀번호: "), repeatPrompt: context.say("Password (again): ", "비밀번호 확인: ")
        ) { context.problem(rules.password($0, username: username, email: email), field: "password", rules) }
    }

    /// Asks for the mailed code and verifies it, which signs in; without an answer, says how to go on.
    private static func finish(_ accepted: SignUpAccepted, _ rules: FormRules, _ context: Context) async throws {
        context.console.err(context.say("Sign-up received. ", "가입 신청을 받았어요. ")
            + CodeEntry.sentText(EmailCodeSent(email: accepted.email, expiresIn: accepted.expiresIn), context))
        let manager = context.sessionManager()
        let verified = context.mayPrompt ? try await CodeEntry.verify(accepted.email, rules: rules, with: manager, context) : nil
        guard let verified else {
            context.console.err(CodeEntry.laterText(accepted.email, context))
            if context.json { try context.printJSON(accepted) }
            return
        }
        context.console.err(context.say("Email verified.", "이메일을 인증했어요."))
        try VerifyCommand.report(verified, context)
    }

    static func signedInText(_ user: User, _ context: Context) -> String {
        context.say("Signed in as \(user.username) (\(user.email)).", "\(KoreanParticle.direction.attached(to: user.username)) 로그인했어요 (\(user.email)).")
    }
}

extension AccountError {
    /// The sign-up fields a refusal is about (a taken nickname counts as the nickname's).
    var refusedFields: Set<String> {
        switch self {
        case .invalidInput(let fields): Set(fields.keys)
        case .conflict(.usernameTaken): ["username"]
        case .conflict(.emailTaken): ["email"]
        default: []
        }
    }
}
