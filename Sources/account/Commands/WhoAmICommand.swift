import AccountAPI
import AccountKit

/// `account whoami`: the signed-in user, from the server.
enum WhoAmICommand {
    static func run(_ context: Context) async throws {
        let user = try await context.signedIn().me()
        if context.json { return try context.printJSON(user) }
        let verified = user.emailVerified ? context.say("verified", "인증됨") : context.say("not verified", "인증 안 됨")
        let rows = [
            (context.say("nickname", "닉네임"), user.username),
            (context.say("email", "이메일"), "\(user.email) (\(verified))"),
            ("mbti", user.mbti.rawValue),
            ("id", user.id.uuidString.lowercased()),
            (context.say("joined", "가입일"), RFC3339.string(from: user.createdAt)),
        ]
        for (label, value) in rows { context.console.out(label.padded(to: 10) + value) }
    }
}
