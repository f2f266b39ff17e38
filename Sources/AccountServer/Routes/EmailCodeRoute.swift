import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer

extension AccountApp {
    /// `POST /auth/email/code`: mails a 6-digit code for `signup` (address not yet used) or
    /// `verify` (an unverified account). Answers the same 202 whatever the address: a taken address
    /// gets a "you already have an account" notice instead (for `signup`), an unknown one (for
    /// `verify`) nothing; both still count for the resend cooldown.
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
        let (now, language, minutes) = (context.now, context.language, configuration.codeTTL / 60)
        let retryAfter = try await store.write { tx -> Int? in
            let account = try tx.user(emailKey: emailKey)
            var notice: MailMessage?
            let sendsCode = switch purpose {
            case .signup: account == nil
            case .verify: account.map { !$0.emailVerified } ?? false
            }
            // Mail goes to the address as stored; only a sign-up code, with no account yet, goes
            // to the request's address (normalized, so it is the one a sign-up will store).
            let recipient = account?.email ?? email
            let wait = try self.issueCode(emailKey: emailKey, purpose: purpose.rawValue, now: now, in: tx) { code in
                if sendsCode { return MailTemplates.code(code, purpose: purpose, language: language, lifetimeMinutes: minutes, to: recipient) }
                if purpose == .signup { notice = MailTemplates.alreadyRegistered(language: language, to: recipient) }
                return nil
            }
            if wait == nil, let notice { try Outbox.enqueue(notice, in: tx, now: now) }
            return wait
        }
        if let retryAfter { throw APIError.rateLimited(retryAfter: retryAfter) }
        // The same line whether or not a code went out, like the reply.
        context.audit(.codeSent, ["purpose": purpose.rawValue])
        mail.poke()
        return try .json(EmailCodeSent(email: email, expiresIn: configuration.codeTTL), status: 202)
    }
}
