import AccountAPI
import AccountStore
import HTTPServer

/// The signed-in account: `GET`, `PATCH` and `DELETE /auth/me`.
struct ProfileRoutes: RouteGroup {
    let services: Services
    /// The `GET /auth/me` replies of the accounts answered lately, reused while a record is unchanged.
    let bodies = ProfileBodies()

    func register(on router: inout Router, _ sets: RouteSets) {
        let bodies = bodies
        router.add(.getMe, in: sets.signedIn, now: { Self.me($0, from: bodies) })
        router.add(.updateMe, in: sets.signedIn, updateMe)
        router.add(.deleteMe, in: sets.signedIn, deleteAccount)
    }

    /// `GET /auth/me`: the signed-in account, as authentication read it; without waiting, so the
    /// whole request is answered on the HTTP thread when authentication did not wait either.
    static func me(_ context: AuthenticatedContext, from bodies: ProfileBodies) -> HTTPResponse {
        .profile(json: bodies.body(for: context.user))
    }

    /// `PATCH /auth/me`: changes the nickname and/or MBTI type; absent fields stay.
    func updateMe(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(UpdateProfileRequest.self)
        var errors = FieldErrors()
        if let username = body.username { errors.add(contentsOf: try services.nicknames.validate(username), to: "username") }
        if let mbti = body.mbti { for code in MBTIRule.validate(mbti) { errors.add(code, to: "mbti") } }
        guard errors.isEmpty else { throw APIError.validation(errors) }

        let (userID, now) = (context.userID, context.now)
        let skeletons = try body.username.map { try services.nicknames.skeletons(of: UsernameRule.normalize($0)) }
        do {
            let updated = try await services.store.write { tx -> UserRecord? in
                guard var user = try tx.lockUser(id: userID) else { return nil }
                if let raw = body.username {
                    user.username = UsernameRule.normalize(raw)
                    user.usernameKey = UsernameRule.key(user.username)
                    user.usernameSkeleton = skeletons?.folded
                    user.usernameDisplaySkeleton = skeletons?.displayed
                    // Taken by another account or a look-alike, or held by a pending sign-up.
                    if try !services.signUps.nicknameIsFree(user, for: user.emailKey, now: now, in: tx) { throw APIError.usernameTaken }
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

    /// `DELETE /auth/me`: with the step-up proof, the account, its sessions and codes are gone,
    /// and its nickname and address are free again; the owner is mailed at the address it had.
    ///
    /// The proof is checked under the account's login back-off; a wrong password is
    /// `403 invalid_credentials`, a wrong code `400 code_invalid`.
    func deleteAccount(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(DeleteAccountRequest.self)
        var errors = FieldErrors()
        let stepUp = try await services.stepUp(body, for: .deleteAccount, context.caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        let (services, user, now) = (self.services, context.user, context.now)
        let accepted = try await services.check(stepUp, context.caller)
        // The store removes sessions, refresh tokens, every code of the address and the second
        // factor with it. A linked Apple ID's grant is revoked at Apple through the outbox.
        try await services.write(after: accepted, context.caller) { tx in
            guard try services.deleteAccount(id: user.id, now: now, in: tx) else { throw APIError.sessionRevoked }
            try services.queueNotice(.accountDeleted, to: user.email, context.caller, in: tx)
        }
        context.audit(.accountDeleted)
        return .noContent
    }
}
