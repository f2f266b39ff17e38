import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

extension AppleRoutes {
    /// `POST /auth/apple`: Apple's identity token and the raw nonce. A linked Apple ID gets the
    /// login reply (`amr` `["apple"]`), or `403 mfa_required` when the account has an authenticator
    /// app; a new one `403 profile_required` with a continuation token; one whose address an
    /// account has `409 apple_link_required` (nothing is linked).
    func logIn(_ context: RequestContext) async throws -> HTTPResponse {
        _ = try services.apple.enabled()
        let body = try context.decodeBody(AppleSignInRequest.self)
        let (token, nonce) = try Self.tokenAndNonce(body.identityToken, body.nonce)
        let identity = try await services.apple.identity(token, nonce: nonce, context.caller, userID: nil, via: "apple_login")
        let device = Self.device(body.deviceName, context)
        switch try await logInOperations.logIn(identity, code: body.authorizationCode, device: device, context.caller) {
        case .signedIn(let pair): return .tokenPair(pair)
        case .secondFactorRequired(let challenge): throw APIError.mfaRequired(challenge)
        case .profileRequired(let profile): throw APIError.profileRequired(profile)
        case .linkRequired: throw APIError.appleLinkRequired
        case .replayed: throw services.apple.refuse(.replayed, context.caller, userID: nil, via: "apple_login")
        }
    }

    private var logInOperations: AppleLoginOperations { services.appleLoginOperations }

    /// `POST /auth/apple/complete`: the continuation token with a nickname and MBTI type; `201`
    /// with the login reply of the new account (address verified, no password, Apple linked).
    /// The token is spent by a success (or found expired); a taken nickname leaves it usable.
    func complete(_ context: RequestContext) async throws -> HTTPResponse {
        _ = try services.apple.enabled()
        let body = try context.decodeBody(AppleCompleteRequest.self)
        var errors = FieldErrors()
        let token = body.continuationToken ?? ""
        if token.isEmpty { errors.add(.required, to: "continuation_token") }
        if let username = body.username { errors.add(contentsOf: try services.nicknames.validate(username), to: "username") } else {
            errors.add(.required, to: "username")
        }
        errors.add(contentsOf: MBTIRule.validate(body.mbti ?? ""), to: "mbti")
        guard errors.isEmpty, let rawUsername = body.username, let mbti = body.mbti.flatMap(MBTI.init(parsing:)) else {
            throw APIError.validation(errors)
        }
        let device = Self.device(body.deviceName, context)
        switch try await signUpOperations.complete(token, username: rawUsername, mbti: mbti, device: device, context.caller) {
        case .created(let pair): return .tokenPair(pair, status: 201)
        case .linkRequired: throw APIError.appleLinkRequired
        }
    }

    private var signUpOperations: AppleSignUpOperations { services.appleSignUpOperations }
}
