import AccountAPI
import AccountKit

/// `account passwd`: changes the password; the server signs out every other session.
///
/// The new password is checked with the shared rules (against this account's nickname and
/// address) and against the current one before anything is sent; at a terminal a wrong current
/// password is asked again. While a second factor is on, its code is asked for too (or taken from
/// `--code` / `--recovery-code`).
enum PasswdCommand {
    static func run(_ context: Context) async throws {
        let (manager, user) = try await context.signedIn()
        let rules = context.mayPrompt ? try await context.rules() : FormRules()
        var current = try askCurrent(context)
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
        // While a second factor is on, the change needs its code too (the user as the server sees it now).
        let factorOn = try await manager.me().mfa?.totp == true
        var factor = factorOn ? try SecondFactorPrompt.required(context) : nil
        var tries = 1
        while true {
            do {
                try await SecondFactorPrompt.wording(factor ?? SecondFactorEntry(), context) {
                    let (code, recoveryCode) = factor?.wire ?? (nil, nil)
                    try await manager.changePassword(ChangePasswordRequest(currentPassword: current, newPassword: new, code: code, recoveryCode: recoveryCode))
                }
                break
            } catch let error as AccountError where error.needsSecondFactor && factor == nil {
                // Turned on elsewhere since: ask for it now.
                factor = try SecondFactorPrompt.required(context)
            } catch let refusal as Refusal where refusal.code == ErrorCode.codeInvalid.rawValue && !SecondFactorPrompt.wasGiven(context) && tries < 3 {
                context.console.err(refusal.message)
                factor = try SecondFactorPrompt.required(context)
                tries += 1
            } catch let refusal as Refusal where refusal.code == "invalid_credentials" {
                let wrong = context.say("The current password is wrong.", "현재 비밀번호가 맞지 않아요.")
                guard context.mayPrompt, tries < 3 else { throw Refusal(code: "invalid_credentials", message: wrong) }
                context.console.err(wrong)
                current = try askCurrent(context)
                tries += 1
            }
        }
        context.report(context.say(
            "Password changed. Other sessions were signed out.", "비밀번호를 바꿨어요. 다른 기기의 세션은 로그아웃되었어요."))
    }

    private static func askCurrent(_ context: Context) throws(UsageError) -> String {
        try context.password(prompt: context.say("Current password: ", "현재 비밀번호: "), field: "current_password")
    }
}
