import AccountAPI
import AccountKit

/// Asking for the mailed code at the terminal: checked as typed, asked again after a wrong one, and
/// a new code mailed only when the person says so (or the old one is spent).
enum CodeEntry {
    /// Verifies `email` with a code typed at the prompt, signing in when the code completes a
    /// sign-up in time (the reply's `session`, kept by `manager`). Returns `nil` when the person
    /// leaves without one (an empty answer and no new code wanted, or the end of input).
    /// - Throws: the refusal of a spent code when no new one is wanted; other failures.
    static func verify(_ email: String, rules: FormRules, with manager: SessionManager, _ context: Context) async throws -> EmailVerified? {
        while true {
            guard let answer = context.optionalAnswer(context.say("Code from the email: ", "메일로 받은 코드: ")) else {
                guard context.confirm(context.say("Send a new code to \(email)?", "\(KoreanParticle.direction.attached(to: email)) 새 코드를 보낼까요?"), defaultYes: false) else {
                    return nil
                }
                try await sendNewCode(to: email, context)
                continue
            }
            if let problem = rules.code(answer).first {
                context.console.err(rules.message(problem, field: "code", context.language))
                continue
            }
            do {
                return try await manager.verifyEmail(email, code: CodeRule.normalize(answer))
            } catch AccountError.codeRejected(let reason) where reason == .codeInvalid {
                context.console.err(Messages.detail(reason, context.language))
            } catch AccountError.codeRejected(let reason) {
                // Spent (too many tries) or expired: only a new code helps.
                context.console.err(Messages.detail(reason, context.language))
                guard context.confirm(context.say("Send a new code to \(email)?", "\(KoreanParticle.direction.attached(to: email)) 새 코드를 보낼까요?"), defaultYes: true) else {
                    throw AccountError.codeRejected(reason)
                }
                try await sendNewCode(to: email, context)
            }
        }
    }

    /// Mails a new code; a refusal to send one yet (the cooldown) is said, and the old code may still do.
    @discardableResult
    static func sendNewCode(to email: String, _ context: Context) async throws -> EmailCodeSent? {
        do {
            let sent = try await context.client.requestEmailCode(EmailCodeRequest(email: email, purpose: .verify))
            context.console.err(sentText(sent, context))
            return sent
        } catch let error as AccountError {
            guard case .rateLimited = error, context.mayPrompt else { throw error }
            context.console.err(error.localizedDescription(in: context.language))
            return nil
        }
    }

    static func sentText(_ sent: EmailCodeSent, _ context: Context) -> String {
        let minutes = max(1, sent.expiresIn / 60)
        return context.say(
            "A code was sent to \(sent.email) (valid \(minutes) minutes).",
            "\(KoreanParticle.direction.attached(to: sent.email)) 인증 코드를 보냈어요 (\(minutes)분 동안 유효).")
    }

    /// How to finish later.
    static func laterText(_ email: String, _ context: Context) -> String {
        context.say(
            "Verify later with: account verify --email \(email)",
            "나중에 인증하려면: account verify --email \(email)")
    }
}
