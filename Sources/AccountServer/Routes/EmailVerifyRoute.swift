import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium

extension SignUpRoutes {
    /// `POST /auth/email/verify`: checks the code mailed to `email` (for sign-up or verification).
    ///
    /// On success the code is spent; for a `verify` code, the address's pending sign-up becomes a
    /// verified account (``PendingSignUps/completePendingSignUp(emailKey:now:in:)``), or an unverified account
    /// with this address becomes verified; and a single-use `email_verification_token` (30
    /// minutes, this address only) is returned. A wrong code counts one try; after the last
    /// allowed try the code is spent (`too_many_attempts`).
    func verifyEmail(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(EmailVerifyRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        errors.add(contentsOf: body.code.map(CodeRule.validate) ?? [.required], to: "code")
        guard errors.isEmpty, let rawEmail = body.email, let rawCode = body.code else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        let emailKey = EmailRule.key(email)
        let code = CodeRule.normalize(rawCode)
        let now = context.now
        let token = RefreshToken.random().text
        let tokenHash = Digest.sha256(Array(token.utf8))
        let tokenTTL = TimeInterval(services.configuration.verificationTokenTTL)

        let (outcome, created): (CodeCheck, UserRecord?)
        do {
            (outcome, created) = try await services.store.write { tx -> (CodeCheck, UserRecord?) in
                let outcome = try services.codes.check(code, emailKey: emailKey, purposes: CodePurpose.allCases.map(\.rawValue), now: now, in: tx)
                guard case .verified(let purpose) = outcome else { return (outcome, nil) }
                var created: UserRecord?
                if purpose == CodePurpose.verify.rawValue {
                    if var account = try tx.user(emailKey: emailKey), !account.emailVerified {
                        account.emailVerified = true
                        account.updatedAt = now
                        try tx.updateUser(account)
                    }
                    created = try services.signUps.completePendingSignUp(emailKey: emailKey, now: now, in: tx)
                }
                try tx.insertVerificationToken(VerificationTokenRecord(hash: tokenHash, emailKey: emailKey, expiresAt: now.addingTimeInterval(tokenTTL)))
                return (outcome, created)
            }
        } catch StoreError.conflict {
            // Another request took the nickname or address in the same moment; nothing was spent.
            throw APIError.usernameTaken
        }
        if let error = outcome.error {
            context.audit(.codeFailed)
            throw error
        }
        if let created { context.audit(.signUpCompleted, userID: created.id) }
        return try .json(EmailVerified(email: email, emailVerificationToken: token))
    }
}
