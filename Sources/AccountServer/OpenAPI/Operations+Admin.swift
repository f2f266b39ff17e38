extension Operation {
    /// What every admin operation may refuse beside the usual token errors.
    static let operatorRefusals: [Int: String] = [
        403: "`admin_required`: the account is not an operator (the role is granted on the server's command line); "
            + "`second_factor_required`: the session was opened with a password alone (its `amr` names no second factor).",
        503: "`service_unavailable`.",
    ]

    /// The paging parameters of admin lists.
    /// The search's `after`: a key cursor holds the last nickname or address key (up to 254 characters).
    static let searchAfter: JSONValue = [
        "name": "after", "in": "query", "required": false,
        "description": "The `next` of the page before (opaque), from a search of the same order (with or without `q`, with or without `@`).",
        "schema": Schema.string(maxLength: 2048),
    ]

    static let pageParameters: [JSONValue] = [
        [
            "name": "limit", "in": "query", "required": false, "description": "Rows in a page, 1 to 100 (default 50).",
            "schema": ["type": "integer", "minimum": 1, "maximum": 100],
        ],
        [
            "name": "after", "in": "query", "required": false, "description": "The `next` of the page before (opaque).",
            "schema": Schema.string(maxLength: 128),
        ],
    ]

    /// The operators' console API: an operator's access token only.
    static let admin: [Operation] = [
        Operation(
            method: "get", path: "/admin/api/audit", id: "adminAudit", tag: "Admin", summary: "The audit log of operator actions",
            description: """
                Every operator action (from the console or `account-server admin`), newest first: who (`account:<id>` or \
                `cli:<name>`), on which account, what, why, when, and the request id. Keyset paged: pass the reply's `next` \
                as `after` for the following page.
                """,
            authenticated: true, parameters: pageParameters,
            successes: [.init(status: 200, description: "A page of events.", schema: Schema.ref("AdminAuditPage"))],
            errors: operatorRefusals.merging([400: "`invalid_request`: `limit` out of range, or `after` not a cursor of this server."]) { $1 }),
        Operation(
            method: "get", path: "/admin/api/users", id: "adminSearchUsers", tag: "Admin", summary: "Search the accounts",
            description: """
                Accounts filtered by every parameter given: `q` a prefix of the nickname's case-folded form, or of the address \
                (case-folded) when it holds an `@`; `verified`, `mfa`, `disabled`; created strictly after `created_after` and \
                before `created_before`. Without `q` newest first (`created_at`, then `id`, descending); with `q` in the order \
                of the key it is a prefix of (the case-folded nickname or address, ascending byte by byte). Keyset paged like \
                every admin list, the cursor valid only for a search of the same order. A page reads a bounded stretch of an \
                index whatever the query, so it costs about the same at a million accounts as at ten; when `q` and a window \
                that holds many accounts are both given, a page may hold fewer rows than `limit`, even none, while `next` is \
                not `null`: the search goes on from there. Only `next: null` ends it.
                """,
            authenticated: true, parameters: searchParameters + [pageParameters[0], searchAfter],
            successes: [.init(status: 200, description: "A page of accounts.", schema: Schema.ref("AdminUserPage"))],
            errors: operatorRefusals.merging([
                400: "`invalid_request`: a flag that is not `true`/`false`, a time that is not RFC 3339, `q` over 254 characters, "
                    + "`limit` out of range, or `after` not a cursor of this server or of a search of another order.",
            ]) { $1 }),
        Operation(
            method: "get", path: "/admin/api/users/{id}", id: "adminShowUser", tag: "Admin", summary: "One account",
            description: "The account with its live sessions, passkeys, second factor and newest security events.",
            authenticated: true, parameters: [accountParameter],
            successes: [.init(status: 200, description: "The account page.", schema: Schema.ref("AdminAccountPage"))],
            errors: operatorRefusals.merging([404: "`not_found`: no account has this id."]) { $1 }),
        action(
            "disable", id: "adminDisableUser", summary: "Disable an account and end its sessions",
            description: "Logins get `403 account_disabled` and every session ends at once: the next request with any of its tokens is `401`.",
            success: .init(status: 200, description: "The account, disabled.", schema: Schema.ref("AdminUser")),
            conflict: "`cannot_act_on_self`: an operator may not disable their own account."),
        action(
            "enable", id: "adminEnableUser", summary: "Enable a disabled account",
            description: "The account may sign in again; sessions ended by disabling stay ended.",
            success: .init(status: 200, description: "The account, enabled.", schema: Schema.ref("AdminUser"))),
        action(
            "end-sessions", id: "adminEndSessions", summary: "End every session of an account",
            description: "Every live session ends at once; the account may log in again.",
            success: .init(status: 200, description: "How many sessions ended.", schema: Schema.ref("AdminSessionsEnded"))),
        action(
            "resend-verification", id: "adminResendVerification", summary: "Mail a new verification code",
            description: "As `POST /auth/email/code` with `purpose` `verify`, under the same limits.",
            success: .init(status: 202, description: "The code is on its way.", schema: Schema.object([:])),
            conflict: "`already_verified`: the address is verified already.",
            rateLimited: true),
        action(
            "remove-second-factor", id: "adminRemoveSecondFactor", summary: "Remove the authenticator app and recovery codes",
            description: "The next login needs the password alone; the owner is told by mail. Passkeys stay; sessions are not ended.",
            success: .init(status: 200, description: "The account, without a second factor.", schema: Schema.ref("AdminUser"))),
        action(
            "delete", id: "adminDeleteUser", summary: "Delete an account",
            description: "As the owner's `DELETE /auth/me`: the account, its sessions, codes, second factor and passkeys.",
            success: .init(status: 204, description: "Deleted."),
            conflict: "`cannot_act_on_self`: an operator may not delete their own account."),
    ]

    /// `{id}`: the account's UUID.
    static let accountParameter: JSONValue = [
        "name": "id", "in": "path", "required": true, "description": "The account's id.", "schema": FieldSchemas.uuid,
    ]

    /// The filters of the account search.
    static let searchParameters: [JSONValue] = [
        [
            "name": "q", "in": "query", "required": false,
            "description": "A nickname prefix (case-folded), or an address prefix when it holds `@`.",
            "schema": Schema.string(maxLength: 254),
        ],
        ["name": "verified", "in": "query", "required": false, "schema": Schema.string(choices: ["true", "false"])],
        ["name": "mfa", "in": "query", "required": false, "schema": Schema.string(choices: ["true", "false"])],
        ["name": "disabled", "in": "query", "required": false, "schema": Schema.string(choices: ["true", "false"])],
        ["name": "created_after", "in": "query", "required": false, "schema": Schema.string(format: "date-time")],
        ["name": "created_before", "in": "query", "required": false, "schema": Schema.string(format: "date-time")],
    ]

    /// `POST /admin/api/users/{id}/<name>` with a reason.
    static func action(
        _ name: String, id: String, summary: String, description: String, success: Success, conflict: String? = nil, rateLimited: Bool = false
    ) -> Operation {
        var errors = operatorRefusals
        errors[404] = "`not_found`: no account has this id."
        errors[422] = "`validation_failed`: `reason` missing or blank (`required`) or over 500 characters (`too_long`)."
        if let conflict { errors[409] = conflict }
        if rateLimited { errors[429] = "`rate_limited`: the address had a code within the resend cooldown, or its codes for this hour; see `Retry-After`." }
        return Operation(
            method: "post", path: "/admin/api/users/{id}/" + name, id: id, tag: "Admin", summary: summary,
            description: description + " Written with an audit event (the reason, the operator, the request id) in the same transaction.",
            authenticated: true, body: "AdminActionRequest", parameters: [accountParameter], successes: [success], errors: errors)
    }
}
