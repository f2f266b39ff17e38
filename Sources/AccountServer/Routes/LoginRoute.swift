import AccountAPI
import AccountStore
import Foundation
import HTTPServer

extension AccountApp {
    /// `POST /auth/login` by `username`, `email` or `login` (either one) and `password`.
    ///
    /// An unknown account costs one hash too and gets the same 401 as a wrong password.
    /// `email_not_verified` comes only after a correct password. A hash made with older
    /// parameters is replaced on the way.
    func logIn(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(LoginRequest.self)
        let identifiers = [("username", body.username), ("email", body.email), ("login", body.login)]
            .compactMap { name, value in value.map { (name, $0) } }
        var errors = FieldErrors()
        if identifiers.isEmpty || identifiers.allSatisfy({ $0.1.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
            errors.add(.required, to: identifiers.first?.0 ?? "login")
        }
        if (body.password ?? "").isEmpty { errors.add(.required, to: "password") }
        guard errors.isEmpty, let password = body.password else { throw APIError.validation(errors) }
        guard identifiers.count == 1, let (field, identifier) = identifiers.first else {
            throw APIError.invalidRequest(LocalizedText(
                en: "Send exactly one of username, email or login.", ko: "username, email, login 중 하나만 보내 주세요."))
        }

        // Normalized first: a full-width `＠` is an `@` too.
        let byEmail = field == "email" || (field == "login" && EmailRule.normalize(identifier).contains("@"))
        let key = byEmail ? EmailRule.key(EmailRule.normalize(identifier)) : UsernameRule.key(UsernameRule.normalize(identifier))
        let account = try await store.read { tx in
            byEmail ? try tx.user(emailKey: key) : try tx.user(usernameKey: key)
        }
        let throttleKey = account.map { Self.throttleKey(userID: $0.id) } ?? Self.throttleKey(unknown: key, byEmail: byEmail)
        if let retryAfter = try await reserveLoginTry(key: throttleKey, now: context.now) {
            context.audit(.loginBackoff, userID: account?.id)
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        guard try await passwords.verify(password, against: account?.passwordHash), var user = account else {
            try await confirmLoginFailure(key: throttleKey, now: context.now)
            context.audit(.loginFailed, userID: account?.id)
            throw APIError.invalidCredentials
        }
        if !user.emailVerified && !configuration.allowUnverifiedLogin {
            // The password was right: this try is no failure.
            try await store.write { try self.clearLoginThrottle(key: throttleKey, in: $0) }
            throw APIError.emailNotVerified
        }

        let now = context.now
        if passwords.needsRehash(user.passwordHash) {
            user.passwordHash = try await passwords.hash(password)
            user.updatedAt = now
        }
        let rehashed = user
        let userAgent = context.request.headers["User-Agent"]
        let (session, refresh) = try await store.write { tx in
            if rehashed.passwordHash != account?.passwordHash { try tx.updateUser(rehashed) }
            try self.clearLoginThrottle(key: throttleKey, in: tx)
            return try self.openSession(userID: rehashed.id, userAgent: userAgent, now: now, in: tx)
        }
        context.audit(.loginSucceeded, userID: user.id)
        return .tokenPair(try await tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now))
    }
}
