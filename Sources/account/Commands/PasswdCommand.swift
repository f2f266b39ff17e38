import AccountAPI
import AccountKit

/// `account passwd`: changes the password; the server signs out every other session.
enum PasswdCommand {
    static func run(_ context: Context) async throws {
        let manager = try await context.signedIn()
        let current = try context.password(prompt: context.say("Current password: ", "현재 비밀번호: "))
        let new = try context.password(
            prompt: context.say("New password: ", "새 비밀번호: "),
            repeatPrompt: context.say("New password (again): ", "새 비밀번호 확인: "))
        let client = context.client
        let request = ChangePasswordRequest(currentPassword: current, newPassword: new)
        try await manager.authorized { token in try await client.changePassword(request, accessToken: token) }
        context.report(context.say(
            "Password changed. Other sessions were signed out.", "비밀번호를 바꿨어요. 다른 기기의 세션은 로그아웃되었어요."))
    }
}
