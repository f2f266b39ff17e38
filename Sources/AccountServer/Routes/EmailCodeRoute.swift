import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer
import Sodium

extension AccountApp {
    /// `POST /auth/email/code`: mails a 6-digit code for `signup` (address not yet used) or
    /// `verify` (an unverified account). Answers the same 202 whatever the address: a taken address
    /// gets a "you already have an account" notice instead, an unknown one (for `verify`) nothing;
    /// both still count for the resend cooldown, so the limit does not tell them apart.
    func requestEmailCode(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(EmailCodeRequest.self)
        var errors = FieldErrors()
        if let email = body.email { for code in EmailRule.validate(email) { errors.add(code, to: "email") } } else { errors.add(.required, to: "email") }
        let purpose = body.purpose.flatMap(CodePurpose.init(rawValue:))
        if body.purpose == nil || body.purpose?.isEmpty == true {
            errors.add(.required, to: "purpose")
        } else if purpose == nil {
            errors.add(.invalidChoice, to: "purpose")
        }
        guard errors.isEmpty, let rawEmail = body.email, let purpose else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        let emailKey = EmailRule.key(email)
        let now = context.now
        let code = codes.newCode()
        let realHash = codes.hash(code: code, emailKey: emailKey, purpose: purpose.rawValue)
        let language = context.language
        let (codeTTL, cooldown) = (configuration.codeTTL, configuration.codeResendCooldown)
        let retryAfter = try await store.write { tx -> Int? in
            if let previous = try tx.code(emailKey: emailKey, purpose: purpose.rawValue) {
                let wait = TimeInterval(cooldown) - now.timeIntervalSince(previous.createdAt)
                if wait > 0 { return Int(wait.rounded(.up)) }
            }
            let account = try tx.user(emailKey: emailKey)
            let sendsCode = switch purpose {
            case .signup: account == nil
            case .verify: account.map { !$0.emailVerified } ?? false
            }
            // Where no code is mailed, the row still holds a hash nobody knows: the cooldown and the
            // answers to wrong codes stay the same as for a real one.
            let codeHash = sendsCode ? realHash : SecureRandom.bytes(count: realHash.count)
            try tx.upsertCode(CodeRecord(
                emailKey: emailKey, purpose: purpose.rawValue, codeHash: codeHash,
                createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(codeTTL))))
            if sendsCode {
                try Outbox.enqueue(
                    MailTemplates.code(code, purpose: purpose, language: language, lifetimeMinutes: codeTTL / 60, to: email),
                    in: tx, now: now)
            } else if purpose == .signup {
                try Outbox.enqueue(MailTemplates.alreadyRegistered(language: language, to: email), in: tx, now: now)
            }
            return nil
        }
        if let retryAfter { throw APIError.rateLimited(retryAfter: retryAfter) }
        mail.poke()
        return try .json(EmailCodeSent(email: email, expiresIn: codeTTL), status: 202)
    }
}
