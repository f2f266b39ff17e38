import AccountAPI
import AccountKit

/// `account login`: by nickname, email, or (when asked) either; keeps the session.
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
        let password = try context.password(prompt: context.say("Password: ", "비밀번호: "))
        let request =
            if let username { LoginRequest(username: username, password: password) }
            else if let email { LoginRequest(email: email, password: password) }
            else { LoginRequest.identifier(identifier ?? "", password: password) }
        let user = try await context.sessionManager().logIn(request)
        try context.report(SignUpCommand.signedInText(user, context), json: user)
    }
}
