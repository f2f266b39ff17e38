import AccountAPI
import Foundation

extension AccountClient {
    // MARK: Sign in with Apple

    /// `POST /auth/apple`: a session's token pair for Apple's identity token and the raw nonce
    /// hashed into it.
    ///
    /// Apple's new user throws ``AccountError/refused(_:)`` with ``ErrorCode/profileRequired``
    /// (its problem carries the continuation token, its lifetime and the address); an address
    /// that has a password account already, ``ErrorCode/appleLinkRequired``; a token that fails
    /// the server's checks, ``ErrorCode/appleTokenInvalid``; an account with a second factor,
    /// ``AccountError/secondFactorRequired(_:)``. ``SessionManager/signInWithApple(using:)`` turns
    /// these into its outcome.
    public func signInWithApple(_ request: AppleSignInRequest) async throws -> TokenPair {
        try await call(.signInWithApple, body: request)
    }

    /// `POST /auth/apple/complete`: makes the account of a `profile_required` answer with a
    /// nickname and MBTI type; the new session's token pair.
    ///
    /// Refusals as sign-up's (``AccountError/invalidInput(_:)``, ``ErrorCode/usernameTaken``); a
    /// continuation token used or unknown, ``AccountError/codeRejected(_:)`` with
    /// ``ErrorCode/codeInvalid``; past its 10 minutes, ``ErrorCode/codeExpired``.
    public func completeAppleSignUp(_ request: AppleCompleteRequest) async throws -> TokenPair {
        try await call(.completeAppleSignUp, body: request)
    }

    /// `POST /auth/apple/link`: links the Apple user of the identity token to the signed-in
    /// account, with the step-up proof of what the account had before (the token being linked
    /// proves nothing); the account as it is now.
    ///
    /// An Apple user of another account (or an account linked to another Apple user already)
    /// throws ``AccountError/conflict(_:)`` with ``ErrorCode/appleAlreadyLinked``; a proof short of
    /// what the account needs, ``AccountError/proofRequired(_:)``.
    public func linkApple(_ request: AppleLinkRequest, accessToken: String) async throws -> User {
        try await call(.linkApple, body: request, accessToken: accessToken, stepUp: true)
    }

    /// `DELETE /auth/apple/link`: unlinks Apple from the signed-in account, with the step-up proof.
    ///
    /// An account with no password and no passkey throws ``AccountError/conflict(_:)`` with
    /// ``ErrorCode/lastSignInMethod``: it would have no way left to log in. A proof short of what
    /// the account needs throws ``AccountError/proofRequired(_:)``.
    public func unlinkApple(_ request: AppleUnlinkRequest, accessToken: String) async throws {
        _ = try await send(.unlinkApple, body: request, accessToken: accessToken, stepUp: true)
    }
}
