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
        do {
            try await manager.authorized { token in try await client.changePassword(request, accessToken: token) }
        } catch AccountError.invalidCredentials {
            // Here only the current password can be wrong (the server's 403; the session stays).
            throw AccountError.refused(.make(
                .invalidCredentials, status: 403, language: context.language,
                detail: context.say("The current password is incorrect.", "현재 비밀번호가 올바르지 않아요.")))
        }
        context.report(context.say(
            "Password changed. Other sessions were signed out.", "비밀번호를 바꿨어요. 다른 기기의 세션은 로그아웃되었어요."))
    }
}
