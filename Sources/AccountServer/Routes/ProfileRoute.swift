import AccountAPI
import AccountStore
import HTTPServer

extension AccountApp {
    /// `GET /auth/me`: the signed-in account.
    func me(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let userID = context.userID
        guard let user = try await store.read({ try $0.user(id: userID) }) else { throw APIError.sessionRevoked }
        return .profile(user.wire)
    }

    /// `PATCH /auth/me`: changes the nickname and/or MBTI type; absent fields stay.
    func updateMe(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(UpdateProfileRequest.self)
        var errors = FieldErrors()
        if let username = body.username { for code in UsernameRule.validate(username) { errors.add(code, to: "username") } }
        if let mbti = body.mbti { for code in MBTIRule.validate(mbti) { errors.add(code, to: "mbti") } }
        guard errors.isEmpty else { throw APIError.validation(errors) }

        let (userID, now) = (context.userID, context.now)
        do {
            let updated = try await store.write { tx -> UserRecord? in
                guard var user = try tx.user(id: userID) else { return nil }
                if let raw = body.username {
                    let key = UsernameRule.key(UsernameRule.normalize(raw))
                    // A nickname held by a pending sign-up is taken too.
                    if key != user.usernameKey, try !self.nicknameIsFree(key, for: user.emailKey, now: now, in: tx) { throw APIError.usernameTaken }
                    user.username = UsernameRule.normalize(raw)
                    user.usernameKey = key
                }
                if let mbti = body.mbti.flatMap(MBTI.init(parsing:)) { user.mbti = mbti.rawValue }
                user.updatedAt = now
                try tx.updateUser(user)
                return user
            }
            guard let updated else { throw APIError.sessionRevoked }
            return .profile(updated.wire)
        } catch StoreError.conflict {
            throw APIError.usernameTaken
        }
    }
}
