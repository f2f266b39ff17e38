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

    /// `POST /auth/password/change`: this session stays, every other one is revoked. While a
    /// second factor is on, the request carries an authenticator `code` or a `recoveryCode` too
    /// (without one: ``AccountError/invalidInput(_:)`` whose ``AccountError/needsSecondFactor`` is true).
    public func changePassword(_ request: ChangePasswordRequest) async throws {
        let client = client
        try await authorized { try await client.changePassword(request, accessToken: $0) }
    }

    /// `DELETE /auth/me`: removes the account; the state becomes `signedOut`
    /// (``SignOutReason/accountDeleted``). While a second factor is on, give an authenticator
    /// `code` or a `recoveryCode` too (without one: ``AccountError/invalidInput(_:)`` whose
    /// ``AccountError/needsSecondFactor`` is true).
    public func deleteAccount(password: String, code: String? = nil, recoveryCode: String? = nil) async throws {
        let client = client
        let factor: (code: String?, recoveryCode: String?) =
            code == nil && recoveryCode == nil ? (nil, nil) : SecondFactorEntry(code: code, recoveryCode: recoveryCode).wire
        let request = DeleteAccountRequest(password: password, code: factor.code, recoveryCode: factor.recoveryCode)
        try await authorized { try await client.deleteAccount(request, accessToken: $0) }
        clearLocally(.accountDeleted)
    }

    /// Keeps a newer copy of the signed-in user in storage and state.
    func remember(_ user: User) {
        guard var current = session, current.user.id == user.id, current.user != user else { return }
        current.user = user
        // The user is display data: a store that cannot write now must not fail the call that read it.
        try? save(current)
        session = current
        publish(.signedIn(user))
        announce(.userUpdated(user))
    }
}
