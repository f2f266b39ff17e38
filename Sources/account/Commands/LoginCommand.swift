import AccountAPI
import AccountKit

/// `account login`: by nickname, email, or (when asked) either; keeps the session. An account with
/// a second factor is asked for its code (or takes `--code` / `--recovery-code`).
enum LoginCommand {
    static func run(_ context: Context) async throws {
        let username = context.invocation.value("username")
        let email = context.invocation.value("email")
        if username != nil, email != nil {
            throw UsageError(context.say("give --username or --email, not both", "--username과 --email 중 하나만 주세요"))
        }
        var identifier: String?
        if username == nil, email == nil {
            guard let answer = context.optionalAnswer(context.say("Nickname or email: ", "닉네임 또는 이메일: ")) else {
                throw UsageError(context.say("missing --username or --email", "--username이나 --email이 없어요"))
            }
            identifier = answer
        }
        // A malformed --code is refused before the password is sent.
        let factor = try SecondFactorPrompt.given(context)
        let password = try context.password(prompt: context.say("Password: ", "비밀번호: "))
        let request =
            if let username { LoginRequest(username: username, password: password) }
            else if let email { LoginRequest(email: email, password: password) }
            else { LoginRequest.identifier(identifier ?? "", password: password) }
        let manager = context.sessionManager()
        let user: User
        do {
            user = try await manager.logIn(request)
        } catch AccountError.secondFactorRequired(let challenge) {
            user = try await SecondFactorPrompt.finishLogin(challenge, given: factor, with: manager, context)
        }
        try context.report(SignUpCommand.signedInText(user, context), json: user)
    }
}
