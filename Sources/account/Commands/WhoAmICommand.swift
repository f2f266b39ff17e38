import AccountAPI
import AccountKit

/// `account whoami`: the signed-in user, from the server.
enum WhoAmICommand {
    static func run(_ context: Context) async throws {
        let user = try await context.signedIn().0.me()
        if context.json { return try context.printJSON(user) }
        let verified = user.emailVerified ? context.say("verified", "인증됨") : context.say("not verified", "인증 안 됨")
        var rows = [
            (FieldLabel.name("username", context.language), user.username),
            (FieldLabel.name("email", context.language), "\(user.email) (\(verified))"),
            ("MBTI", user.mbti.rawValue),
            ("ID", user.id.uuidString.lowercased()),
            (context.say("joined", "가입일"), LocalTime.string(from: user.createdAt)),
        ]
        if let mfa = user.mfa {
            let state = mfa.totp
                ? context.say("on (\(mfa.recoveryCodesLeft) recovery codes left)", "켜짐 (복구 코드 \(mfa.recoveryCodesLeft)개 남음)")
                : context.say("off", "꺼짐")
            rows.append((context.say("two-step", "2단계 인증"), state))
        }
        let width = rows.map(\.0.columns).max() ?? 0
        for (label, value) in rows { context.console.out(label.padded(to: width + 2) + value) }
    }
}
