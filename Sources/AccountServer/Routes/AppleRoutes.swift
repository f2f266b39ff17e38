import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer
import Mailer

/// Sign in with Apple: `POST /auth/apple` (log in, or learn that a nickname is needed), `POST
/// /auth/apple/complete` (a new Apple user's sign-up), and `POST`/`DELETE /auth/apple/link`
/// (signed in: link or unlink the account's Apple ID).
///
/// An Apple ID is never linked to an account by its address alone: an address an account has
/// gets `409 apple_link_required`, and linking needs that account's session. Every refusal of a
/// token is an `apple_token_refused` event naming the check; the reply says only
/// `apple_token_invalid`. Without `--apple-client-id` every route answers `404 apple_not_configured`.
struct AppleRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.signInWithApple, in: sets.account, logIn)
        router.add(.completeAppleSignUp, in: sets.account, complete)
        router.add(.linkApple, in: sets.signedIn, link)
        router.add(.unlinkApple, in: sets.signedIn, unlink)
    }

    /// The token and nonce of a request, or `422` naming the missing one.
    static func tokenAndNonce(_ token: String?, _ nonce: String?) throws -> (String, String) {
        var errors = FieldErrors()
        guard let pair = tokenAndNonce(token, nonce, into: &errors) else { throw APIError.validation(errors) }
        return pair
    }

    /// The token and nonce of a request, or `nil` with the field errors added to `errors`.
    static func tokenAndNonce(_ token: String?, _ nonce: String?, into errors: inout FieldErrors) -> (String, String)? {
        var found = FieldErrors()
        if (token ?? "").isEmpty { found.add(.required, to: "identity_token") }
        if (nonce ?? "").isEmpty { found.add(.required, to: "nonce") }
        if let nonce, nonce.utf8.count > AppleIdentityVerifier.maximumNonceLength { found.add(.tooLong, to: "nonce") }
        errors.merge(found)
        guard found.isEmpty, let token, let nonce else { return nil }
        return (token, nonce)
    }

    /// The session's device: `device_name` (trimmed, at most 100 characters), else the User-Agent.
    static func device(_ name: String?, _ context: RequestContext) -> String? {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty else { return context.request.headers["User-Agent"] }
        return String(trimmed.prefix(100))
    }

    /// `POST /auth/apple/link` (signed in): links the Apple ID of a fresh identity token to the
    /// caller's account, with the step-up proof of what the account had before (the token being
    /// linked proves nothing); `200` with the account. Linking the Apple ID already linked is `200`
    /// again. The owner is mailed.
    func link(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        _ = try services.apple.enabled()
        let body = try context.base.decodeBody(AppleLinkRequest.self)
        var errors = FieldErrors()
        let tokenAndNonce = Self.tokenAndNonce(body.identityToken, body.nonce, into: &errors)
        var proof = body.proof
        // The Apple ID being linked cannot be its own proof.
        (proof.appleIdentityToken, proof.appleNonce) = (nil, nil)
        let stepUp = try await services.stepUp(proof, for: .linkApple, context.caller, into: &errors)
        guard errors.isEmpty, let (token, nonce) = tokenAndNonce, let stepUp else { throw APIError.validation(errors) }
        // The token being linked is checked first (it asks nothing of Apple until every local
        // check passed), then the proof; only then is Apple's token endpoint called.
        let identity = try await services.apple.identity(
            token, nonce: nonce, context.base.caller, userID: context.userID, via: "apple_link", status: 403)
        switch try await operations.link(identity, code: body.authorizationCode, to: context.caller, after: stepUp) {
        case .linked(let user), .alreadyLinked(let user): return .profile(user.wire)
        case .replayed: throw services.apple.refuse(.replayed, context.base.caller, userID: context.userID, via: "apple_link", status: 403)
        }
    }

    /// `DELETE /auth/apple/link` (signed in): with the step-up proof, unlinks the account's Apple ID
    /// and revokes its grant at Apple (through the outbox); `204`. Refused with `409
    /// last_sign_in_method` when the account has no password and no passkey; `404` when no Apple
    /// ID is linked. The owner is mailed.
    func unlink(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(AppleUnlinkRequest.self)
        try await operations.checkUnlinkable(context.caller)
        var errors = FieldErrors()
        let stepUp = try await services.stepUp(body, for: .unlinkApple, context.caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        try await operations.unlink(of: context.caller, after: stepUp)
        return .noContent
    }

    private var operations: AppleLinkOperations { services.appleLinkOperations }
}
