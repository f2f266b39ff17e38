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
        if let username = body.username { errors.add(contentsOf: try nicknames.validate(username), to: "username") }
        if let mbti = body.mbti { for code in MBTIRule.validate(mbti) { errors.add(code, to: "mbti") } }
        guard errors.isEmpty else { throw APIError.validation(errors) }

        let (userID, now) = (context.userID, context.now)
        let skeletons = try body.username.map { try nicknames.skeletons(of: UsernameRule.normalize($0)) }
        do {
            let updated = try await store.write { tx -> UserRecord? in
                guard var user = try tx.user(id: userID) else { return nil }
                if let raw = body.username {
                    user.username = UsernameRule.normalize(raw)
                    user.usernameKey = UsernameRule.key(user.username)
                    user.usernameSkeleton = skeletons?.folded
                    user.usernameDisplaySkeleton = skeletons?.displayed
                    // Taken by another account or a look-alike, or held by a pending sign-up.
                    if try !self.nicknameIsFree(user, for: user.emailKey, now: now, in: tx) { throw APIError.usernameTaken }
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
