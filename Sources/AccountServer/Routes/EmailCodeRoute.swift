import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer

extension SignUpRoutes {
    /// `POST /auth/email/code`: mails a 6-digit code for `signup` (address not yet used) or
    /// `verify` (a pending sign-up, or an unverified account). Answers the same 202 whatever the
    /// address: a taken address gets a "you already have an account" notice instead (for
    /// `signup`), one with nothing to verify gets nothing (for `verify`); all count for the resend
    /// cooldown, and every message goes through the address's mail budget.
    func requestEmailCode(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(EmailCodeRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        let purpose = body.purpose.flatMap(CodePurpose.init(rawValue:))
        if (body.purpose ?? "").isEmpty {
            errors.add(.required, to: "purpose")
        } else if purpose == nil {
            errors.add(.invalidChoice, to: "purpose")
        }
        guard errors.isEmpty, let rawEmail = body.email, let purpose else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        let emailKey = EmailRule.key(email)
        let (now, language, minutes) = (context.now, context.language, services.configuration.codeTTL / 60)
        let mailed = try await services.store.write { tx -> Bool in
            let account = try tx.user(emailKey: emailKey)
            let pending = account == nil && purpose == .verify ? try services.signUps.livePendingSignUp(emailKey: emailKey, now: now, in: tx) : nil
            let sendsCode = switch purpose {
            case .signup: account == nil
            case .verify: account.map { !$0.emailVerified } ?? (pending != nil)
            }
            // Mail goes to the address as stored (by the account or the pending sign-up); only a
            // sign-up code, with nothing stored yet, goes to the request's address (normalized, so
            // it is the one a sign-up will store).
            let recipient = account?.email ?? pending?.email ?? email
            return try services.codes.issue(emailKey: emailKey, purpose: purpose.rawValue, now: now, in: tx) { code in
                if sendsCode {
                    // A pending sign-up's code names its nickname, as the sign-up's own mail did.
                    return .code(MailTemplates.code(
                        code, purpose: purpose, language: language, lifetimeMinutes: minutes, to: recipient, signingUpAs: pending?.username))
                }
                if purpose == .signup, let account { return .notice(MailTemplates.alreadyRegistered(language: language, to: account.email)) }
                return .none
            }
        }
        // The same line whether or not a code went out, like the reply.
        context.audit(.codeSent, ["purpose": purpose.rawValue])
        if mailed { services.activity.count(.codesSent, at: now) }
        return try .json(EmailCodeSent(email: email, expiresIn: services.configuration.codeTTL), status: 202)
    }
}
