import AccountAPI

extension SessionManager {
    /// `POST /auth/password/reset`: mails a reset code to `request`'s address (the server answers
    /// the same whatever the address, so nobody learns which have accounts).
    public func requestPasswordReset(_ request: PasswordResetRequest) async throws {
        try await client.requestPasswordReset(request)
    }

    /// `POST /auth/password/reset/confirm`: sets the new password with the mailed code, and tells
    /// event subscribers (``SessionEvent/passwordReset``). The server ends every session of the
    /// account; a session of it held here learns so at its next call (``SignOutReason/revokedElsewhere``).
    /// - Throws: the server's refusal (``AccountError/codeRejected(_:)``, ``AccountError/invalidInput(_:)``
    ///   for the new password…); nothing is announced then.
    public func confirmPasswordReset(_ request: PasswordResetConfirmRequest) async throws {
        try await client.confirmPasswordReset(request)
        announce(.passwordReset)
    }
}
