import AccountAPI
import AccountKit

/// The second factor at the terminal: `--code` or `--recovery-code` for scripts, else one prompt
/// that takes either (six digits are the authenticator's code, anything else a recovery code),
/// asked again after a malformed or wrong one.
enum SecondFactorPrompt {
    /// The factor given with `--code` or `--recovery-code`, checked for its shape; `nil` when neither.
    static func given(_ context: Context) throws(UsageError) -> SecondFactorEntry? {
        let code = context.invocation.value("code")
        let recoveryCode = context.invocation.value("recovery-code")
        if code != nil, recoveryCode != nil {
            throw UsageError(context.say("give --code or --recovery-code, not both", "--code와 --recovery-code 중 하나만 주세요"))
        }
        var entry: SecondFactorEntry
        if let recoveryCode {
            entry = SecondFactorEntry(method: .recoveryCode)
            entry.recoveryCode = recoveryCode
        } else if let code {
            entry = SecondFactorEntry()
            entry.code = code
        } else {
            return nil
        }
        if let problem = entry.problems.first {
            throw UsageError(refusing: entry.wireName, FieldError(code: problem, message: entry.requirement(context.language)), context.language)
        }
        return entry
    }

    /// Whether `--code` or `--recovery-code` was given (a wrong one is not asked again).
    static func wasGiven(_ context: Context) -> Bool {
        context.invocation.value("code") != nil || context.invocation.value("recovery-code") != nil
    }

    /// Asks until a well-formed answer comes; `nil` when prompting is not allowed. With
    /// `recoveryCodes` `false` only the authenticator's code is taken.
    /// - Throws: a usage error at the end of input.
    static func ask(_ context: Context, recoveryCodes: Bool = true) throws(UsageError) -> SecondFactorEntry? {
        guard context.mayPrompt else { return nil }
        let prompt = recoveryCodes
            ? context.say("Code from your authenticator app (or a recovery code): ", "인증 앱의 코드 (또는 복구 코드): ")
            : context.say("Code from your authenticator app: ", "인증 앱의 코드: ")
        while true {
            guard let answer = context.console.ask(prompt) else { throw context.missing("code", endOfInput: true) }
            guard !answer.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            var entry = SecondFactorEntry(answer: answer)
            if !recoveryCodes, entry.method == .recoveryCode {
                entry = SecondFactorEntry()
                entry.code = answer
            }
            if entry.isComplete { return entry }
            context.console.err(entry.requirement(context.language))
        }
    }

    /// The factor from the options, else asked for.
    /// - Throws: `mfa_required` (status 1) when it may not be asked for.
    static func required(_ context: Context, recoveryCodes: Bool = true) throws -> SecondFactorEntry {
        if let entry = try given(context) { return entry }
        if let entry = try ask(context, recoveryCodes: recoveryCodes) { return entry }
        throw notGiven(context, recoveryCodes: recoveryCodes)
    }

    /// The refusal when the factor is needed, not given, and may not be asked for.
    private static func notGiven(_ context: Context, recoveryCodes: Bool) -> Refusal {
        Refusal(code: "mfa_required", message: recoveryCodes
            ? context.say(
                "Two-step verification is on: give --code with your authenticator app's code, or --recovery-code.",
                "2단계 인증이 켜져 있어요: --code로 인증 앱의 코드를, 또는 --recovery-code를 주세요.")
            : context.say(
                "Two-step verification is on: give --code with your authenticator app's code.",
                "2단계 인증이 켜져 있어요: --code로 인증 앱의 코드를 주세요."))
    }

    /// Finishes a login that waits for its second factor: with the factor `given` by an option
    /// once, or asking again after a wrong one while the challenge lasts.
    static func finishLogin(
        _ challenge: SecondFactorChallenge, given: SecondFactorEntry?, with manager: SessionManager, _ context: Context
    ) async throws -> User {
        if let given { return try await verify(given, manager, context) }
        guard context.mayPrompt else { throw notGiven(context, recoveryCodes: true) }
        context.console.err(Messages.detail(.mfaRequired, context.language))
        while true {
            guard let entry = try ask(context, recoveryCodes: challenge.acceptsRecoveryCode) else { throw context.missing("code") }
            do {
                return try await verify(entry, manager, context)
            } catch let refusal as Refusal where refusal.code == ErrorCode.codeInvalid.rawValue {
                let left = await manager.secondFactorChallenge?.attemptsLeft ?? 0
                context.console.err(refusal.message + " " + context.say(
                    left == 1 ? "1 try left." : "\(left) tries left.", "\(left)번 더 시도할 수 있어요."))
            }
        }
    }

    /// Verifies `entry`; a wrong factor is said in the words of its kind (not the email code's).
    private static func verify(_ entry: SecondFactorEntry, _ manager: SessionManager, _ context: Context) async throws -> User {
        try await wording(entry, context) {
            entry.method == .authenticatorCode
                ? try await manager.verifySecondFactor(code: entry.code)
                : try await manager.verifySecondFactor(recoveryCode: entry.recoveryCode)
        }
    }

    /// Runs `call`; a wrong factor (`code_invalid`) becomes a refusal worded for `entry`'s kind,
    /// a wrong password one for the password.
    static func wording<T>(_ entry: SecondFactorEntry, _ context: Context, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch AccountError.codeRejected(let code) where code == .codeInvalid {
            throw Refusal(code: code.rawValue, message: entry.wrongMessage(context.language))
        } catch AccountError.invalidCredentials {
            throw Refusal(code: "invalid_credentials", message: context.say("The password is not right.", "비밀번호가 올바르지 않아요."))
        }
    }
}
