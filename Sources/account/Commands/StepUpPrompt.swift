import AccountAPI
import AccountKit

/// The step-up proof at the terminal, for a change of how the account signs in: the password (asked
/// without echo, or a line of `--password-stdin`), then the second factor where the account needs
/// it (`--code` / `--recovery-code`, or asked), never a secret on the command line. An account that
/// proves itself with a passkey or Apple (which a terminal cannot give) is told to use the app.
enum StepUpPrompt {
    /// What `change` asks of the signed-in account (read again from the server).
    /// - Throws: `proof_required` (status 1) when it is a passkey or Apple.
    static func requirement(for change: SensitiveChange, _ manager: SessionManager, _ context: Context) async throws -> StepUpRequirement {
        let requirement = try await manager.stepUpRequirement(for: change)
        if let refusal = unavailable(requirement.identity, context) { throw refusal }
        return requirement
    }

    /// The second factor `requirement` asks beside the password: from the options, else asked for.
    static func factor(_ requirement: StepUpRequirement, _ context: Context) throws -> SecondFactorEntry? {
        switch requirement.secondFactor(with: .password) {
        case .none: nil
        case .codeOrRecoveryCode: try SecondFactorPrompt.required(context)
        case .authenticatorCode: try SecondFactorPrompt.required(context, recoveryCodes: false)
        }
    }

    /// Runs `change` with the proof of `password` and `factor`. At a terminal a wrong password or
    /// code is asked again (three tries in all; `passwordPrompt` for the password), and a factor the
    /// server asks for (turned on elsewhere since) is asked for then; a wrong password is refused in
    /// the words of `wrongPassword`.
    static func run<T>(
        _ requirement: StepUpRequirement, password: String, factor: SecondFactorEntry?, passwordPrompt: String, wrongPassword: String,
        _ context: Context, _ change: (AccountProof) async throws -> T
    ) async throws -> T {
        var (password, factor, tries) = (password, factor, 1)
        let recoveryCodes = requirement.secondFactor(with: .password) != .authenticatorCode
        while true {
            do {
                return try await SecondFactorPrompt.wording(factor ?? SecondFactorEntry(), context) {
                    try await change(AccountProof(.password(password), secondFactor: factor))
                }
            } catch let error as AccountError where !error.missingProof.isEmpty {
                let missing = error.missingProof
                if let refusal = unavailable(missing.contains(.passkey) ? .passkey : missing.contains(.apple) ? .apple : .password, context) {
                    throw refusal
                }
                // Turned on elsewhere since: ask for it now.
                guard missing.contains(.secondFactor), factor == nil else { throw error }
                factor = try SecondFactorPrompt.required(context, recoveryCodes: recoveryCodes)
            } catch let refusal as Refusal where refusal.code == ErrorCode.codeInvalid.rawValue && !SecondFactorPrompt.wasGiven(context) && tries < 3 {
                context.console.err(refusal.message)
                factor = try SecondFactorPrompt.required(context, recoveryCodes: recoveryCodes)
                tries += 1
            } catch let refusal as Refusal where refusal.code == "invalid_credentials" {
                guard context.mayPrompt, tries < 3 else { throw Refusal(code: refusal.code, message: wrongPassword) }
                context.console.err(wrongPassword)
                password = try context.password(prompt: passwordPrompt, field: "password")
                tries += 1
            }
        }
    }

    /// The refusal for a proof by `identity` that a terminal cannot give; `nil` for the password.
    private static func unavailable(_ identity: StepUpRequirement.Identity, _ context: Context) -> Refusal? {
        switch identity {
        case .password: nil
        case .passkey:
            Refusal(code: "proof_required", message: context.say(
                "This account confirms changes like this with one of its passkeys, which a terminal cannot use: make the change in the app.",
                "이 계정은 이런 변경을 패스키로 확인하는데, 터미널에서는 패스키를 쓸 수 없어요. 앱에서 변경해 주세요."))
        case .apple:
            Refusal(code: "proof_required", message: context.say(
                "This account has no password and confirms changes with Apple, which a terminal cannot use: make the change in the app.",
                "이 계정은 비밀번호가 없고 Apple로 본인 확인을 하는데, 터미널에서는 쓸 수 없어요. 앱에서 변경해 주세요."))
        }
    }
}
