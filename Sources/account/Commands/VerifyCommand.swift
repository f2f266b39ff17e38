import AccountAPI
import AccountKit

/// `account verify`: checks the code mailed at sign-up; a new code only with `--resend` or when asked.
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
        let verified: EmailVerified
        if let given {
            verified = try await context.client.verifyEmail(EmailVerifyRequest(email: email, code: CodeRule.normalize(given)))
        } else if context.mayPrompt {
            guard let answer = try await CodeEntry.verify(email, rules: rules, context) else {
                context.console.err(CodeEntry.laterText(email, context))
                return
            }
            verified = answer
        } else {
            // --resend without --code and without prompts: the code is on its way, nothing more to do.
            if context.json, let sent { try context.printJSON(sent) }
            return
        }
        try context.report(
            context.say("\(verified.email) is verified. Sign in with: account login", "\(verified.email) 인증을 마쳤어요. 로그인: account login"),
            json: verified)
    }
}
