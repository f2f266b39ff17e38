import AccountAPI
import AccountKit

/// `account signup`: details first; the server mails a code, which is then asked for and checked.
enum SignUpCommand {
    static func run(_ context: Context) async throws {
        let username = try context.value("username", prompt: context.say("Nickname: ", "닉네임: "))
        let email = try context.value("email", prompt: context.say("Email: ", "이메일: "))
        let password = try context.password(
            prompt: context.say("Password: ", "비밀번호: "),
            repeatPrompt: context.say("Password (again): ", "비밀번호 확인: "))
        let mbti = try context.mbti()
        let request = SignUpRequest(
            username: username, email: email, password: password, passwordConfirmation: password, mbti: mbti)
        switch try await context.client.signUp(request) {
        case .signedIn(let pair):
            // Only an email-first sign-up (with a verification token) answers this way.
            try await context.sessionManager().begin(with: pair)
            try context.report(signedInText(pair.user, context), json: pair.user)
        case .codeSent(let accepted):
            try await finish(accepted, username: username, password: password, context)
        }
    }

    /// Asks for the mailed code, verifies it and signs in; without an answer, says how to go on.
    private static func finish(_ accepted: SignUpAccepted, username: String, password: String, _ context: Context) async throws {
        let minutes = max(1, accepted.expiresIn / 60)
        context.console.err(context.say(
            "Account created. A code was sent to \(accepted.email) (valid \(minutes) minutes).",
            "계정을 만들었어요. \(accepted.email)(으)로 인증 코드를 보냈어요 (\(minutes)분 동안 유효)."))
        guard let code = context.optionalAnswer(context.say("Code from the email: ", "메일로 받은 코드: ")) else {
            context.console.err(context.say(
                "Verify later with: account verify --email \(accepted.email) --code CODE",
                "나중에 인증하려면: account verify --email \(accepted.email) --code 코드"))
            if context.json { try context.printJSON(accepted) }
            return
        }
        _ = try await context.client.verifyEmail(EmailVerifyRequest(email: accepted.email, code: code))
        context.console.err(context.say("Email verified.", "이메일을 인증했어요."))
        let user = try await context.sessionManager().logIn(LoginRequest(username: username, password: password))
        try context.report(signedInText(user, context), json: user)
    }

    static func signedInText(_ user: User, _ context: Context) -> String {
        context.say("Signed in as \(user.username) (\(user.email)).", "\(user.username)(\(user.email))(으)로 로그인했어요.")
    }
}
