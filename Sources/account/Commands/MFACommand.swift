import AccountAPI
import AccountKit
import Foundation
import QRCode
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `account mfa [status|enable|disable|codes]`: the account's second factor (an authenticator
/// app's codes, with recovery codes in reserve).
///
/// `enable` asks for the password, prints the `otpauth://` URI as a QR code with the secret
/// beside it, asks for the app's first code and prints the recovery codes. A script runs it in two
/// calls: `--password-stdin` (or `--no-input`) starts and prints the secret (`--json`: `secret`
/// and `otpauth_uri`); `--code CODE` confirms and prints the recovery codes. Starting, turning it
/// off and new codes each take the step-up proof (``StepUpPrompt``): the password, and the code.
enum MFACommand {
    static func run(_ context: Context) async throws {
        let subcommand = context.invocation.subcommand ?? "status"
        try checkOptions(for: subcommand, context)
        // A malformed --code is refused before anything is asked or sent.
        _ = try SecondFactorPrompt.given(context)
        switch subcommand {
        case "status": try await status(context)
        case "enable": try await enable(context)
        case "disable": try await disable(context)
        case "codes": try await codes(context)
        default:
            let hint = Suggestion.nearest(to: subcommand, in: Command.mfa.subcommands)
            throw UsageError(
                context.say("unknown subcommand 'mfa \(subcommand)'", "알 수 없는 명령 'mfa \(subcommand)'")
                    + (hint.map { context.say(". Did you mean 'mfa \($0)'?", ". \(KoreanParticle.object.attached(to: "'mfa \($0)'")) 찾으셨나요?") } ?? ""))
        }
    }

    /// Refuses an option of `account mfa` that its subcommand does not take (`mfa codes
    /// --recovery-code`: new codes need the authenticator's).
    private static func checkOptions(for subcommand: String, _ context: Context) throws(UsageError) {
        let takes: Set<String> = switch subcommand {
        case "enable", "codes": ["code", "password-stdin"]
        case "disable": ["code", "recovery-code", "password-stdin"]
        default: []
        }
        let own = Command.mfa.valueOptions.union(Command.mfa.flagOptions)
        for name in context.invocation.values.keys.sorted() + context.invocation.flags.sorted() where own.contains(name) && !takes.contains(name) {
            throw UsageError(context.say(
                "option '--\(name)' does not apply to 'mfa \(subcommand)'", "'--\(name)' 옵션은 'mfa \(subcommand)'에 쓸 수 없어요"))
        }
    }

    // MARK: Subcommands

    /// Whether the second factor is on, and how many recovery codes are left.
    private static func status(_ context: Context) async throws {
        let user = try await context.signedIn().0.me()
        let status = user.mfa ?? SecondFactorStatus(totp: false, recoveryCodesLeft: 0)
        let text = status.totp
            ? context.say(
                "Two-step verification is on: \(status.recoveryCodesLeft) recovery codes left.",
                "2단계 인증이 켜져 있어요. 복구 코드가 \(status.recoveryCodesLeft)개 남았어요.")
            : context.say(
                "Two-step verification is off. Turn it on with: account mfa enable",
                "2단계 인증이 꺼져 있어요. 켜려면: account mfa enable")
        try context.report(text, json: status)
    }

    /// Starts enrolling (password), shows the secret, and confirms with the app's code; or, with
    /// `--code`, confirms an enrolment started before.
    private static func enable(_ context: Context) async throws {
        let (manager, _) = try await context.signedIn()
        if let given = try SecondFactorPrompt.given(context) {
            return try await confirm(given, manager, context)
        }
        let requirement = try await StepUpPrompt.requirement(for: .enableSecondFactor, manager, context)
        if requirement.secondFactorOn { throw AccountError.conflict(.mfaAlreadyEnabled) }
        let enrollment = try await stepUp(requirement, manager, context) { try await manager.enrollTOTP(proof: $0) }
        guard context.mayPrompt else {
            if context.json { return try context.printJSON(enrollment) }
            show(enrollment, context)
            context.console.err(context.say(
                "Then finish with: account mfa enable --code CODE", "그다음 마무리하려면: account mfa enable --code 코드"))
            return
        }
        show(enrollment, context)
        while true {
            guard let entry = try SecondFactorPrompt.ask(context, recoveryCodes: false) else { throw context.missing("code") }
            do {
                return try await confirm(entry, manager, context)
            } catch let refusal as Refusal where refusal.code == ErrorCode.codeInvalid.rawValue {
                context.console.err(refusal.message)
            }
        }
    }

    /// Confirms the enrolment with the app's code and prints the recovery codes.
    private static func confirm(_ entry: SecondFactorEntry, _ manager: SessionManager, _ context: Context) async throws {
        let codes: [String]
        do {
            codes = try await SecondFactorPrompt.wording(entry, context) { try await manager.confirmTOTP(code: entry.code) }
        } catch AccountError.conflict(let code) where code == .mfaNotEnabled {
            throw Refusal(code: code.rawValue, message: context.say(
                "No setup is waiting to be confirmed: start with account mfa enable", "확인할 설정이 없어요. account mfa enable로 시작해 주세요."))
        }
        printRecoveryCodes(codes, heading: context.say(
            "Two-step verification is on. Other sessions were signed out.", "2단계 인증을 켰어요. 다른 기기의 세션은 로그아웃되었어요."), context)
    }

    /// Turns the factor off with the password and a code or a recovery code.
    private static func disable(_ context: Context) async throws {
        let (manager, _) = try await context.signedIn()
        let requirement = try await StepUpPrompt.requirement(for: .disableSecondFactor, manager, context)
        guard requirement.secondFactorOn else { throw AccountError.conflict(.mfaNotEnabled) }
        try await stepUp(requirement, manager, context) { try await manager.disableTOTP(proof: $0) }
        context.report(context.say(
            "Two-step verification is off. Other sessions were signed out.", "2단계 인증을 껐어요. 다른 기기의 세션은 로그아웃되었어요."))
    }

    /// A new set of recovery codes, with the password and the app's code.
    private static func codes(_ context: Context) async throws {
        let (manager, _) = try await context.signedIn()
        let requirement = try await StepUpPrompt.requirement(for: .replaceRecoveryCodes, manager, context)
        guard requirement.secondFactorOn else { throw AccountError.conflict(.mfaNotEnabled) }
        let codes = try await stepUp(requirement, manager, context) { try await manager.replaceRecoveryCodes(proof: $0) }
        printRecoveryCodes(codes, heading: context.say(
            "New recovery codes; the old ones no longer work.", "새 복구 코드예요. 예전 코드는 더 이상 쓸 수 없어요."), context)
    }

    /// Runs `change` with the step-up proof `requirement` asks: the password, then its second factor.
    private static func stepUp<T>(
        _ requirement: StepUpRequirement, _ manager: SessionManager, _ context: Context, _ change: (AccountProof) async throws -> T
    ) async throws -> T {
        let prompt = context.say("Password: ", "비밀번호: ")
        let password = try context.password(prompt: prompt)
        let factor = try StepUpPrompt.factor(requirement, context)
        return try await StepUpPrompt.run(
            requirement, password: password, factor: factor, passwordPrompt: prompt,
            wrongPassword: context.say("The password is not right.", "비밀번호가 올바르지 않아요."), context, change)
    }

    // MARK: Output

    /// The QR code of the `otpauth://` URI, the secret and the URI: on standard output, or on
    /// standard error with `--json` (standard output then carries only the final JSON).
    private static func show(_ enrollment: TOTPEnrollment, _ context: Context) {
        let write = context.json ? context.console.err : context.console.out
        write(context.say(
            "Scan this QR code with your authenticator app (or type the secret into it):",
            "인증 앱으로 이 QR 코드를 스캔하세요 (또는 비밀 키를 직접 입력하세요):"))
        if let code = try? QRCode(encoding: enrollment.otpauthURI) {
            write(code.terminalText(colors: colorsWanted(toStandardError: context.json)))
        }
        write(context.say("Secret: ", "비밀 키: ") + enrollment.groupedSecret)
        write(enrollment.otpauthURI)
    }

    private static func printRecoveryCodes(_ codes: [String], heading: String, _ context: Context) {
        if context.json {
            try? context.printJSON(RecoveryCodes(recoveryCodes: codes))
            return
        }
        context.console.out(heading)
        context.console.out(context.say(
            "Recovery codes (each works once, in place of a code; keep them somewhere safe, they are not shown again):",
            "복구 코드 (코드 대신 한 번씩 쓸 수 있어요. 다시 보여 드리지 않으니 안전한 곳에 보관하세요):"))
        for code in codes { context.console.out("  " + code) }
    }

    /// ANSI colors when the QR code goes to a terminal that takes them (not with `NO_COLOR` or
    /// `TERM=dumb`).
    private static func colorsWanted(toStandardError: Bool) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard environment["NO_COLOR"] == nil, environment["TERM"] != "dumb" else { return false }
        return isatty(toStandardError ? STDERR_FILENO : STDOUT_FILENO) == 1
    }
}
