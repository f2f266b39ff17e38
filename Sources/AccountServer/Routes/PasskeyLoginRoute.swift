import AccountAPI
import AccountCore
import HTTPServer

extension PasskeyRoutes {
    /// `POST /auth/passkeys/login/options`: `PublicKeyCredentialRequestOptionsJSON` with a new
    /// challenge and no `allowCredentials`, so the device offers whichever passkey of this RP it holds.
    func loginOptions(_ context: RequestContext) async throws -> HTTPResponse {
        try .json(try await operations.loginOptions(caller: context.caller))
    }

    /// `POST /auth/passkeys/login`: the assertion `get()` made for the options' challenge; `200`
    /// with the token pair and user, as a login; the session's `amr` is `["swk" or "hwk", "user",
    /// "mfa"]`. A refused assertion is logged (`passkey_refused`) and answered `passkey_login_failed`.
    func logIn(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(PasskeyLoginRequest.self)
        guard let credential = body.credential else { throw APIError.validation("credential", .required) }
        return .tokenPair(try await operations.logIn(credential, caller: context.caller))
    }

    private var operations: PasskeyLoginOperations { services.passkeyLoginOperations }
}
