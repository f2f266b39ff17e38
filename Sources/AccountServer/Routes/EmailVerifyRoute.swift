import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium

extension AccountApp {
    /// What a code check came to; decided inside the transaction, answered after it commits
    /// (throwing inside would roll back the counted wrong try).
    private enum CodeCheck: Sendable {
        case verified
        case invalid
        case expired
        case spent
    }

    /// `POST /auth/email/verify`: checks the code mailed to `email` (for sign-up or verification).
    ///
    /// On success the code is spent, an unverified account with this address becomes verified, and
    /// a single-use `email_verification_token` (30 minutes, this address only) is returned. A wrong
    /// code counts one try; after the last allowed try the code is spent (`too_many_attempts`).
    func verifyEmail(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(EmailVerifyRequest.self)
        var errors = FieldErrors()
        if let email = body.email { for code in EmailRule.validate(email) { errors.add(code, to: "email") } } else { errors.add(.required, to: "email") }
        if let code = body.code { for problem in CodeRule.validate(code) { errors.add(problem, to: "code") } } else { errors.add(.required, to: "code") }
        guard errors.isEmpty, let rawEmail = body.email, let rawCode = body.code else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        let emailKey = EmailRule.key(email)
        let code = rawCode.trimmingCharacters(in: .whitespacesAndNewlines)
        let now = context.now
        let token = RefreshToken.random().text
        let tokenHash = Digest.sha256(Array(token.utf8))
        let maxAttempts = configuration.codeMaxAttempts
        let tokenTTL = TimeInterval(configuration.verificationTokenTTL)
        let codes = codes

        let outcome = try await store.write { tx -> CodeCheck in
            let candidates = try CodePurpose.allCases.compactMap { try tx.code(emailKey: emailKey, purpose: $0.rawValue) }
            let live = candidates.filter { $0.expiresAt > now }
            guard !candidates.isEmpty else { return .invalid }
            guard !live.isEmpty else { return .expired }
            let usable = live.filter { $0.attempts < maxAttempts }
            guard !usable.isEmpty else { return .spent }
            if let match = usable.first(where: { candidate in
                constantTimeEquals(candidate.codeHash, codes.hash(code: code, emailKey: emailKey, purpose: candidate.purpose))
            }) {
                try tx.deleteCode(emailKey: emailKey, purpose: match.purpose)
                if match.purpose == CodePurpose.verify.rawValue, var account = try tx.user(emailKey: emailKey), !account.emailVerified {
                    account.emailVerified = true
                    account.updatedAt = now
                    try tx.updateUser(account)
                }
                try tx.insertVerificationToken(VerificationTokenRecord(hash: tokenHash, emailKey: emailKey, expiresAt: now.addingTimeInterval(tokenTTL)))
                return .verified
            }
            var spent = false
            for candidate in usable {
                let attempts = try tx.incrementCodeAttempts(emailKey: emailKey, purpose: candidate.purpose)
                if attempts >= maxAttempts { spent = true }
            }
            return spent ? .spent : .invalid
        }
        switch outcome {
        case .verified: return try .json(EmailVerified(email: email, emailVerificationToken: token))
        case .invalid: throw APIError.codeInvalid
        case .expired: throw APIError.codeExpired
        case .spent: throw APIError.tooManyAttempts
        }
    }
}
