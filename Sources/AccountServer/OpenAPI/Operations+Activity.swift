extension Operation {
    /// The account's own security history and the operators' figures.
    static let activity: [Operation] = [
        Operation(
            method: "get", path: "/auth/security-events", id: "listSecurityEvents", tag: "Account",
            summary: "The account's own security history",
            description: """
                The signed-in account's security events, newest first: logins (with address and device), failed attempts \
                (a wrong password or second-factor code), password and second-factor changes, recovery codes used, passkeys \
                added and removed, sessions ended, and the account disabled or enabled. Kept 90 days, at most 300 an account. \
                Keyset paged: pass the reply's `next` as `after` for the following page. Refreshes are not events. A client \
                shows a `type` it does not know generically.
                """,
            authenticated: true,
            parameters: [
                [
                    "name": "limit", "in": "query", "required": false, "description": "Events in a page, 1 to 100 (default 20).",
                    "schema": ["type": "integer", "minimum": 1, "maximum": 100],
                ],
                [
                    "name": "after", "in": "query", "required": false, "description": "The `next` of the page before (opaque).",
                    "schema": Schema.string(maxLength: 128),
                ],
            ],
            successes: [.init(status: 200, description: "A page of events.", schema: Schema.ref("SecurityEventPage"))],
            errors: [400: "`invalid_request`: `limit` out of range, or `after` not a cursor of this server.", 503: "`service_unavailable`."]),
        Operation(
            method: "get", path: "/admin/api/figures", id: "adminFigures", tag: "Admin", summary: "Sign-ups, logins, refreshes and codes over time",
            description: """
                Per hour for the last 24 hours and per day for the last 30 days (UTC), oldest first; the last bucket is the \
                current hour or day, and a bucket with no activity is there with zeros. Counted by every server on the \
                database in memory and added to its hourly counters every 2 seconds (this server's are added before the \
                reply, so they are exact to the moment; another server's may be up to 2 seconds behind).
                """,
            authenticated: true,
            successes: [.init(status: 200, description: "The figures.", schema: Schema.ref("AdminFigures"))],
            errors: operatorRefusals),
    ]
}
