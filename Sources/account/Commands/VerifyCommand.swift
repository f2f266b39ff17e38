import AccountAPI
import AccountKit

/// `account verify`: checks the code mailed at sign-up, which signs the new account in when the
/// sign-up was made within the server's window (30 minutes); a new code only with `--resend` or
/// when asked.
enum VerifyCommand {
    static func run(_ context: Context) async throws {
        let resend = context.invocation.has("resend")
        let given = context.invocation.value("code")
        if given == nil, !resend, !context.mayPrompt {
            throw UsageError(context.say(
                "missing --code (add --resend to have a new code mailed)", "--code가 없어요 (새 코드를 받으려면 --resend를 더하세요)"))
        }
        let email = try context.checkedValue("email", field: "email", prompt: context.say("Email: ", "이메일: ")) {
            context.problem(FormRules().email($0), field: "email", FormRules())
        }
        let rules = context.mayPrompt && given == nil ? try await context.rules() : FormRules()
        var sent: EmailCodeSent?
        if resend { sent = try await CodeEntry.sendNewCode(to: email, context) }
        let manager = context.sessionManager()
        let verified: EmailVerified
        if let given {
            verified = try await manager.verifyEmail(email, code: CodeRule.normalize(given))
        } else if context.mayPrompt {
            guard let answer = try await CodeEntry.verify(email, rules: rules, with: manager, context) else {
                context.console.err(CodeEntry.laterText(email, context))
                return
            }
            verified = answer
        } else {
            // --resend without --code and without prompts: the code is on its way, nothing more to do.
            if context.json, let sent { try context.printJSON(sent) }
            return
        }
        try report(verified, context)
    }

    /// Says that the address is verified, and signed in as whom when the code signed in. With
    /// `--json`: the reply without its session (the tokens stay in the credentials file).
    static func report(_ verified: EmailVerified, _ context: Context) throws {
        let shown = EmailVerified(email: verified.email, emailVerificationToken: verified.emailVerificationToken)
        guard let user = verified.session?.user else {
            return try context.report(
                context.say(
                    "\(verified.email) is verified. Sign in with: account login --email \(verified.email)",
                    "\(verified.email) 인증을 마쳤어요. 로그인: account login --email \(verified.email)"),
                json: shown)
        }
        try context.report(
            context.say("\(verified.email) is verified. ", "\(verified.email) 인증을 마쳤어요. ") + SignUpCommand.signedInText(user, context),
            json: shown)
    }
}
