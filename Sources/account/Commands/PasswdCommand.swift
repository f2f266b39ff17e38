import AccountAPI
import AccountKit

/// `account passwd`: changes the password; the server signs out every other session.
///
/// The new password is checked with the shared rules (against this account's nickname and
/// address) and against the current one before anything is sent; at a terminal a wrong current
/// password is asked again. The current password is the step-up proof (``StepUpPrompt``): while a
/// second factor is on, its code is asked for too (or taken from `--code` / `--recovery-code`); an
/// account that proves itself with a passkey or Apple is sent to the app.
enum PasswdCommand {
    static func run(_ context: Context) async throws {
        let (manager, user) = try await context.signedIn()
        let requirement = try await StepUpPrompt.requirement(for: .changePassword, manager, context)
        let rules = context.mayPrompt ? try await context.rules() : FormRules()
        let current = try context.password(prompt: currentPrompt(context), field: "current_password")
        let new = try context.password(
            prompt: context.say("New password: ", "새 비밀번호: "),
            repeatPrompt: context.say("New password (again): ", "새 비밀번호 확인: "), field: "new_password"
        ) { candidate in
            if candidate == current {
                return FieldError(code: FieldErrorCode("same_as_current"), message: context.say(
                    "The new password is the same as the current one; choose another.", "새 비밀번호가 현재 비밀번호와 같아요. 다른 비밀번호를 정해 주세요."))
            }
            return context.problem(rules.password(candidate, username: user.username, email: user.email), field: "password", rules)
        }
        let factor = try StepUpPrompt.factor(requirement, context)
        try await StepUpPrompt.run(
            requirement, password: current, factor: factor, passwordPrompt: currentPrompt(context),
            wrongPassword: context.say("The current password is wrong.", "현재 비밀번호가 맞지 않아요."), context
        ) { proof in
            try await manager.changePassword(newPassword: new, proof: proof)
        }
        context.report(context.say(
            "Password changed. Other sessions were signed out.", "비밀번호를 바꿨어요. 다른 기기의 세션은 로그아웃되었어요."))
    }

    private static func currentPrompt(_ context: Context) -> String { context.say("Current password: ", "현재 비밀번호: ") }
}
