import AccountAPI
import Foundation

extension AccountClient {
    // MARK: Passkeys

    /// `POST /auth/passkeys/register/options`: the creation options for a new passkey of the
    /// signed-in account (a single-use challenge valid 5 minutes).
    ///
    /// The account holding 20 passkeys throws ``AccountError/refused(_:)`` with ``ErrorCode/passkeyLimitReached``.
    public func passkeyRegistrationOptions(accessToken: String) async throws -> PasskeyCreationOptions {
        try await call(.passkeyRegistrationOptions, accessToken: accessToken)
    }

    /// `POST /auth/passkeys/register`: adds the passkey the device made for the last options, with
    /// the step-up proof of what the account had before it (a passkey never proves its own addition).
    ///
    /// A response the server's checks refuse throws ``AccountError/refused(_:)`` with
    /// ``ErrorCode/passkeyInvalid``, ``ErrorCode/challengeInvalid`` or ``ErrorCode/challengeExpired``
    /// (ask for new options); one registered already, ``ErrorCode/passkeyExists``; a proof short of
    /// what the account needs, ``AccountError/proofRequired(_:)``.
    public func registerPasskey(_ request: PasskeyRegisterRequest, accessToken: String) async throws -> Passkey {
        try await call(.registerPasskey, body: request, accessToken: accessToken, stepUp: true)
    }

    /// `POST /auth/passkeys/login/options`: the request options of a passkey login (no account
    /// named: the device offers its passkeys for the server's domain).
    public func passkeyLoginOptions() async throws -> PasskeyRequestOptions {
        try await call(.passkeyLoginOptions)
    }

    /// `POST /auth/passkeys/login`: a new session's token pair for a signed assertion. A passkey
    /// counts as both factors: it never asks for a second one.
    ///
    /// A passkey no account has, or one the checks refuse, throws ``AccountError/refused(_:)`` with
    /// ``ErrorCode/passkeyInvalid``.
    public func logInWithPasskey(_ request: PasskeyLoginRequest) async throws -> TokenPair {
        try await call(.logInWithPasskey, body: request)
    }

    /// `POST /auth/passkeys/reauth/options`: request options to prove a sensitive change with one
    /// of the signed-in account's passkeys (listed as `allowCredentials`); the challenge is this
    /// session's only, single use, valid 5 minutes.
    ///
    /// An account without passkeys throws ``AccountError/refused(_:)`` with ``ErrorCode/notFound``.
    public func passkeyReauthenticationOptions(accessToken: String) async throws -> PasskeyRequestOptions {
        try await call(.passkeyReauthenticationOptions, accessToken: accessToken)
    }

    /// `GET /auth/passkeys`: the account's passkeys, oldest first.
    public func passkeys(accessToken: String) async throws -> [Passkey] {
        let list: PasskeyList = try await call(.listPasskeys, accessToken: accessToken)
        return list.passkeys
    }

    /// `DELETE /auth/passkeys/{id}`: removes one of the account's passkeys, with the step-up proof.
    ///
    /// A wrong password throws ``AccountError/invalidCredentials`` (the session stays); no passkey
    /// of the account with this id, ``AccountError/refused(_:)`` with ``ErrorCode/notFound``; a
    /// proof short of what the account needs, ``AccountError/proofRequired(_:)``.
    public func deletePasskey(id: UUID, _ request: PasskeyDeleteRequest, accessToken: String) async throws {
        _ = try await send(.deletePasskey, id: id.uuidString.lowercased(), body: request, accessToken: accessToken, stepUp: true)
    }
}
