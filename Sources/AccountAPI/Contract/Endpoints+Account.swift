extension Endpoint {
    /// The signed-in account, its sessions and its password.
    static let account: [Endpoint] = [getMe, updateMe, deleteMe, listSessions, revokeSession, changePassword, requestPasswordReset, confirmPasswordReset]

    /// `GET /auth/me`: The signed-in account.
    public static let getMe = Endpoint(
        .get, "/auth/me", operationId: "getMe", tag: "Account", summary: "The signed-in account", auth: .bearer,
        replies: [.init(status: 200, description: "The account.", body: .schema("User"))],
        errors: [503: "`service_unavailable`."])

    /// `PATCH /auth/me`: Change the nickname or MBTI type.
    public static let updateMe = Endpoint(
        .patch, "/auth/me", operationId: "updateMe", tag: "Account", summary: "Change the nickname or MBTI type",
        auth: .bearer, request: "UpdateProfileRequest",
        replies: [.init(status: 200, description: "The changed account.", body: .schema("User"))],
        errors: [409: "`username_taken`.", 503: "`service_unavailable`."])

    /// `DELETE /auth/me`: Delete the account.
    public static let deleteMe = Endpoint(
        .delete, "/auth/me", operationId: "deleteMe", tag: "Account", summary: "Delete the account",
        details: """
            With \(stepUpProof) The account, its sessions, codes and second factor \
            are gone; its nickname and address are free again. The owner gets a notice mail at the address it had.
            """,
        auth: .bearer, request: "DeleteAccountRequest",
        replies: [.init(status: 204, description: "Deleted.")],
        errors: stepUpErrors([
            401: "A token error: `token_invalid`, `token_expired` or `session_revoked` (with a Bearer challenge).",
            503: "`service_unavailable`.",
        ]))

    /// `GET /auth/sessions`: The account's live sessions.
    public static let listSessions = Endpoint(
        .get, "/auth/sessions", operationId: "listSessions", tag: "Sessions", summary: "The account's live sessions",
        auth: .bearer,
        replies: [.init(status: 200, description: "Newest first; the caller's own is `current`.", body: .schema("SessionList"))],
        errors: [503: "`service_unavailable`."])

    /// `DELETE /auth/sessions/{id}`: End one session.
    public static let revokeSession = Endpoint(
        .delete, "/auth/sessions/{id}", operationId: "revokeSession", tag: "Sessions", summary: "End one session",
        auth: .bearer,
        parameters: [.init("id", in: .path, required: true, description: "The session's id (from `GET /auth/sessions`).", value: .uuid)],
        replies: [.init(status: 204, description: "Ended.")],
        errors: [404: "`not_found`: no live session of the caller's account has this id (another account's is 404 too).", 503: "`service_unavailable`."])

    /// `POST /auth/password/change`: Change the password.
    public static let changePassword = Endpoint(
        .post, "/auth/password/change", operationId: "changePassword", tag: "Password", summary: "Change the password",
        details: """
            With \(stepUpProof) The password is `current_password` here. Every \
            other session is revoked; this one stays. The owner gets a notice mail naming the change, the device and the address; the security history has `password_changed`.
            """,
        auth: .bearer, request: "ChangePasswordRequest",
        replies: [.init(status: 204, description: "Changed.")],
        errors: stepUpErrors([
            401: "A token error: `token_invalid`, `token_expired` or `session_revoked` (with a Bearer challenge).",
            422: "`new_password` missing or breaking a password rule.",
            503: "`service_unavailable`.",
        ]))

    /// `POST /auth/password/reset`: Mail a password-reset code.
    public static let requestPasswordReset = Endpoint(
        .post, "/auth/password/reset", operationId: "requestPasswordReset", tag: "Password", summary: "Mail a password-reset code",
        details: """
            Answers 202 whether or not the address has an account; only an account's address gets a code. Same resend \
            limits as other codes, and the code's mail shares the address's budget with every other message.
            """,
        request: "PasswordResetRequest",
        replies: [.init(status: 202, description: "Accepted.", body: .schema("EmailCodeSent"))],
        errors: [429: "`rate_limited` (resend limit or address limit), with `Retry-After`.", 503: "`service_unavailable`."])

    /// `POST /auth/password/reset/confirm`: Set a new password with a mailed code.
    public static let confirmPasswordReset = Endpoint(
        .post, "/auth/password/reset/confirm", operationId: "confirmPasswordReset", tag: "Password",
        summary: "Set a new password with a mailed code",
        details: """
            Every session ends (no automatic login); the address counts as verified, since the code reached it. \
            The code is checked first: until it is right, every reply and its time are the same for a registered and \
            an unknown address, whatever `new_password` is. Only after a right code is `new_password` checked against \
            the account's rules (422 keeps the code, so another password can follow) and hashed.
            """,
        request: "PasswordResetConfirmRequest",
        replies: [.init(status: 204, description: "Changed.")],
        errors: [
            400: "`invalid_request`, `code_invalid` (wrong code, or no account) or `code_expired`.",
            422: "`validation_failed`: a field is missing or malformed; after a right code, `new_password` may be refused (the code stays valid).",
            429: "`too_many_attempts` (the code is spent) or `rate_limited`.",
            503: "`service_unavailable`.",
        ])
}
