import AccountAPI
import AccountCore
import AccountStore
import AccountStoreCache
import HTTPServer

/// The signed-in account: `GET`, `PATCH` and `DELETE /auth/me`.
struct ProfileRoutes: RouteGroup {
    let services: Services
    /// The `GET /auth/me` replies of the accounts answered lately, reused while a record is unchanged.
    let bodies = ProfileBodies { WireJSON.user($0.wire) }

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

        switch try await operations.update(with: body, of: context.caller) {
        case .updated(let user): return .profile(user.wire)
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
        let accepted = try await services.check(stepUp, context.caller)
        switch try await operations.delete(of: context.caller, after: accepted) {
        case .deleted: return .noContent
        }
    }

    private var operations: ProfileOperations { services.profileOperations }
}
