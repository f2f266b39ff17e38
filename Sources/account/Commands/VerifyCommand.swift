import AccountAPI
import AccountKit

/// `account verify`: checks a mailed code; without one, has a new code mailed and asks for it.
enum VerifyCommand {
    static func run(_ context: Context) async throws {
        let email = try context.value("email", prompt: context.say("Email: ", "이메일: "))
        var code = context.invocation.value("code")
        if code == nil {
            let sent = try await context.client.requestEmailCode(EmailCodeRequest(email: email, purpose: .verify))
            context.console.err(context.say(
                "A code was sent to \(sent.email).", "\(sent.email)(으)로 인증 코드를 보냈어요."))
            code = context.optionalAnswer(context.say("Code from the email: ", "메일로 받은 코드: "))
            guard code != nil else {
                if context.json { try context.printJSON(sent) }
                return
            }
        }
        let verified = try await context.client.verifyEmail(EmailVerifyRequest(email: email, code: code ?? ""))
        try context.report(
            context.say("\(verified.email) is verified. Sign in with: account login", "\(verified.email) 인증을 마쳤어요. 로그인: account login"),
            json: verified)
    }
}
