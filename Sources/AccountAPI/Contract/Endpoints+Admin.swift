extension Endpoint {
    /// What every admin operation may refuse beside the usual token errors.
    static let operatorRefusals: [Int: String] = [
        403: "`admin_required`: the account is not an operator (the role is granted on the server's command line); "
            + "`second_factor_required`: the session was opened with a password alone (its `amr` names no second factor).",
        503: "`service_unavailable`.",
    ]

    /// The search's `after`: a key cursor holds the last nickname or address key (up to 254 characters).
    static let searchAfter = Parameter(
        "after", in: .query,
        description: "The `next` of the page before (opaque), from a search of the same order (with or without `q`, with or without `@`).",
        value: .string(maxLength: 2048))

    /// The paging parameters of admin lists.
    static let pageParameters: [Parameter] = [
        .init("limit", in: .query, description: "Rows in a page, 1 to 100 (default 50).", value: .integer(minimum: 1, maximum: 100)),
        .init("after", in: .query, description: "The `next` of the page before (opaque).", value: .string(maxLength: 128)),
    ]

    /// The operators' console API: an operator's access token only.
    static let admin: [Endpoint] = [adminAudit, adminSearchUsers, adminShowUser, adminDisableUser, adminEnableUser, adminEndSessions, adminResendVerification, adminRemoveSecondFactor, adminDeleteUser]

    /// `GET /admin/api/audit`: The audit log of operator actions.
    public static let adminAudit = Endpoint(
        .get, "/admin/api/audit", operationId: "adminAudit", tag: "Admin", summary: "The audit log of operator actions",
        details: """
            Every operator action (from the console or `account-server admin`), newest first: who (`account:<id>` or \
            `cli:<name>`), on which account, what, why, when, and the request id. Keyset paged: pass the reply's `next` \
            as `after` for the following page.
            """,
        auth: .operator, parameters: pageParameters,
        replies: [.init(status: 200, description: "A page of events.", body: .schema("AdminAuditPage"))],
        errors: operatorRefusals.merging([400: "`invalid_request`: `limit` out of range, or `after` not a cursor of this server."]) { $1 })

    /// `GET /admin/api/users`: Search the accounts.
    public static let adminSearchUsers = Endpoint(
        .get, "/admin/api/users", operationId: "adminSearchUsers", tag: "Admin", summary: "Search the accounts",
        details: """
            Accounts filtered by every parameter given: `q` a prefix of the nickname's case-folded form, or of the address \
            (case-folded) when it holds an `@`; `verified`, `mfa`, `disabled`; created strictly after `created_after` and \
            before `created_before`. Without `q` newest first (`created_at`, then `id`, descending); with `q` in the order \
            of the key it is a prefix of (the case-folded nickname or address, ascending byte by byte). Keyset paged like \
            every admin list, the cursor valid only for a search of the same order. A page reads a bounded stretch of an \
            index whatever the query, so it costs about the same at a million accounts as at ten; when `q` and a window \
            that holds many accounts are both given, a page may hold fewer rows than `limit`, even none, while `next` is \
            not `null`: the search goes on from there. Only `next: null` ends it.
            """,
        auth: .operator, parameters: searchParameters + [pageParameters[0], searchAfter],
        replies: [.init(status: 200, description: "A page of accounts.", body: .schema("AdminUserPage"))],
        errors: operatorRefusals.merging([
            400: "`invalid_request`: a flag that is not `true`/`false`, a time that is not RFC 3339, `q` over 254 characters, "
                + "`limit` out of range, or `after` not a cursor of this server or of a search of another order.",
        ]) { $1 })

    /// `GET /admin/api/users/{id}`: One account.
    public static let adminShowUser = Endpoint(
        .get, "/admin/api/users/{id}", operationId: "adminShowUser", tag: "Admin", summary: "One account",
        details: "The account with its live sessions, passkeys, second factor and newest security events.",
        auth: .operator, parameters: [accountParameter],
        replies: [.init(status: 200, description: "The account page.", body: .schema("AdminAccountPage"))],
        errors: operatorRefusals.merging([404: "`not_found`: no account has this id."]) { $1 })

    /// `POST /admin/api/users/{id}/disable`: Disable an account and end its sessions.
    public static let adminDisableUser = action(
        "disable", operationId: "adminDisableUser", summary: "Disable an account and end its sessions",
        details: "Logins get `403 account_disabled` and every session ends at once: the next request with any of its tokens is `401`.",
        success: .init(status: 200, description: "The account, disabled.", body: .schema("AdminUser")),
        conflict: "`cannot_act_on_self`: an operator may not disable their own account.")

    /// `POST /admin/api/users/{id}/enable`: Enable a disabled account.
    public static let adminEnableUser = action(
        "enable", operationId: "adminEnableUser", summary: "Enable a disabled account",
        details: "The account may sign in again; sessions ended by disabling stay ended.",
        success: .init(status: 200, description: "The account, enabled.", body: .schema("AdminUser")))

    /// `POST /admin/api/users/{id}/end-sessions`: End every session of an account.
    public static let adminEndSessions = action(
        "end-sessions", operationId: "adminEndSessions", summary: "End every session of an account",
        details: "Every live session ends at once; the account may log in again.",
        success: .init(status: 200, description: "How many sessions ended.", body: .schema("AdminSessionsEnded")))

    /// `POST /admin/api/users/{id}/resend-verification`: Mail a new verification code.
    public static let adminResendVerification = action(
        "resend-verification", operationId: "adminResendVerification", summary: "Mail a new verification code",
        details: "As `POST /auth/email/code` with `purpose` `verify`, under the same limits.",
        success: .init(status: 202, description: "The code is on its way.", body: .emptyObject),
        conflict: "`already_verified`: the address is verified already.",
        rateLimited: true)

    /// `POST /admin/api/users/{id}/remove-second-factor`: Remove the authenticator app and recovery codes.
    public static let adminRemoveSecondFactor = action(
        "remove-second-factor", operationId: "adminRemoveSecondFactor", summary: "Remove the authenticator app and recovery codes",
        details: "The next login needs the password alone; the owner is told by mail. Passkeys stay; sessions are not ended.",
        success: .init(status: 200, description: "The account, without a second factor.", body: .schema("AdminUser")))

    /// `POST /admin/api/users/{id}/delete`: Delete an account.
    public static let adminDeleteUser = action(
        "delete", operationId: "adminDeleteUser", summary: "Delete an account",
        details: "As the owner's `DELETE /auth/me`: the account, its sessions, codes, second factor and passkeys.",
        success: .init(status: 204, description: "Deleted."),
        conflict: "`cannot_act_on_self`: an operator may not delete their own account.")

    /// `{id}`: the account's UUID.
    static let accountParameter = Parameter("id", in: .path, required: true, description: "The account's id.", value: .uuid)

    /// The filters of the account search.
    static let searchParameters: [Parameter] = [
        .init(
            "q", in: .query, description: "A nickname prefix (case-folded), or an address prefix when it holds `@`.",
            value: .string(maxLength: 254)),
        .init("verified", in: .query, value: .string(choices: ["true", "false"])),
        .init("mfa", in: .query, value: .string(choices: ["true", "false"])),
        .init("disabled", in: .query, value: .string(choices: ["true", "false"])),
        .init("created_after", in: .query, value: .string(format: "date-time")),
        .init("created_before", in: .query, value: .string(format: "date-time")),
    ]

    /// `POST /admin/api/users/{id}/<name>` with a reason.
    static func action(
        _ name: String, operationId: String, summary: String, details: String, success: Reply, conflict: String? = nil, rateLimited: Bool = false
    ) -> Endpoint {
        var errors = operatorRefusals
        errors[404] = "`not_found`: no account has this id."
        errors[422] = "`validation_failed`: `reason` missing or blank (`required`) or over 500 characters (`too_long`)."
        if let conflict { errors[409] = conflict }
        if rateLimited { errors[429] = "`rate_limited`: the address had a code within the resend cooldown, or its codes for this hour; see `Retry-After`." }
        return Endpoint(
            .post, "/admin/api/users/{id}/" + name, operationId: operationId, tag: "Admin", summary: summary,
            details: details + " Written with an audit event (the reason, the operator, the request id) in the same transaction.",
            auth: .operator, request: "AdminActionRequest", parameters: [accountParameter], replies: [success], errors: errors)
    }
}
