extension Operation {
    /// What every admin operation may refuse beside the usual token errors.
    static let operatorRefusals: [Int: String] = [
        403: "`admin_required`: the account is not an operator (the role is granted on the server's command line); "
            + "`second_factor_required`: the session was opened with a password alone (its `amr` names no second factor).",
        503: "`service_unavailable`.",
    ]

    /// The paging parameters of admin lists.
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

    /// The operators' console API (issue 17): an operator's access token only.
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
    ]
}
