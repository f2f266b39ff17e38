import AccountAPI
import Foundation

extension SessionManager {
    /// `GET /auth/me`, and updates the state's user (``SessionEvent/userUpdated(_:)`` when it changed).
    public func me() async throws -> User {
        let client = client
        let user = try await authorized { try await client.me(accessToken: $0) }
        remember(user)
        return user
    }

    /// `PATCH /auth/me`: changes the nickname and/or MBTI type, and updates the state's user.
    public func updateProfile(_ request: UpdateProfileRequest) async throws -> User {
        let client = client
        let user = try await authorized { try await client.updateProfile(request, accessToken: $0) }
        remember(user)
        return user
    }

    /// `GET /auth/sessions`: the account's live sessions, newest first.
    public func sessions() async throws -> [SessionInfo] {
        let client = client
        return try await authorized { try await client.sessions(accessToken: $0) }
    }

    /// `DELETE /auth/sessions/{id}`: ends one of the account's sessions. Ending this device's own
    /// session is logging out: use ``logOut(everywhere:)``.
    public func revokeSession(id: UUID) async throws {
        let client = client
        try await authorized { try await client.revokeSession(id: id, accessToken: $0) }
    }

    /// Ends every other session of the account (`POST /auth/logout?scope=others`); this one
    /// stays. The one way to do it: ``logOut(everywhere:)`` ends this one too.
    public func endOtherSessions() async throws {
        let client = client
        try await authorized { try await client.logOut(scope: .others, accessToken: $0) }
    }

    /// `POST /auth/password/change`: sets `newPassword` (checked by ``PasswordRule``), proven as
    /// `proof` says (``StepUpRequirement`` for ``SensitiveChange/changePassword``: the current
    /// password, or a passkey for an account that holds one; with the second factor while it is
    /// on). This session stays, every other one is revoked.
    ///
    /// - Throws: ``AccountError/invalidCredentials`` for a wrong current password (the session
    ///   stays); ``AccountError/proofRequired(_:)`` for a proof short of what the account needs
    ///   (``AccountError/needsSecondFactor`` when the second factor was turned on elsewhere);
    ///   ``AccountError/invalidInput(_:)`` for the new password (`new_password`).
    public func changePassword(newPassword: String, proof: AccountProof) async throws {
        let client = client
        let request = ChangePasswordRequest(newPassword: newPassword, proof: StepUpProof(proof))
        try await authorized { try await client.changePassword(request, accessToken: $0) }
    }

    /// `DELETE /auth/me`: removes the account, proven as `proof` says (``StepUpRequirement`` for
    /// ``SensitiveChange/deleteAccount``); the events say ``SessionEvent/userDeleted(_:)``, then
    /// ``SessionEvent/signedOut(_:)`` with ``SignOutReason/accountDeleted``, and the state becomes
    /// `signedOut`.
    ///
    /// - Throws: ``AccountError/invalidCredentials`` for a wrong password (the session stays);
    ///   ``AccountError/proofRequired(_:)`` for a proof short of what the account needs
    ///   (``AccountError/needsSecondFactor`` when it is the second factor).
    public func deleteAccount(proof: AccountProof) async throws {
        let client = client
        let request = StepUpProof(proof)
        try await authorized { try await client.deleteAccount(request, accessToken: $0) }
        if let user = session?.user { announce(.userDeleted(user)) }
        clearLocally(.accountDeleted)
    }

    /// ``deleteAccount(proof:)`` with the password, and while the second factor is on an
    /// authenticator `code` or a `recoveryCode`: for an account that holds no passkey or has the
    /// second factor on.
    public func deleteAccount(password: String, code: String? = nil, recoveryCode: String? = nil) async throws {
        try await deleteAccount(proof: .password(password, code: code, recoveryCode: recoveryCode))
    }

    /// Keeps a newer copy of the signed-in user in storage and state.
    func remember(_ user: User) {
        guard var current = session, current.user.id == user.id, current.user != user else { return }
        current.user = user
        // The user is display data: a store that cannot write now must not fail the call that read it.
        try? save(current, withRefreshToken: false)
        session = current
        publish(.signedIn(user))
        announce(.userUpdated(user))
    }
}
