extension Endpoint {
    /// The account's own security history and the operators' figures.
    static let activity: [Endpoint] = [listSecurityEvents, adminFigures]

    /// `GET /auth/security-events`: The account's own security history.
    public static let listSecurityEvents = Endpoint(
        .get, "/auth/security-events", operationId: "listSecurityEvents", tag: "Account",
        summary: "The account's own security history",
        details: """
            The signed-in account's security events, newest first: logins (with address and device), failed attempts \
            (a wrong password or second-factor code), password and second-factor changes, recovery codes used, passkeys \
            added and removed, sessions ended, and the account disabled or enabled. Kept 90 days, at most 300 an account. \
            Keyset paged: pass the reply's `next` as `after` for the following page. Refreshes are not events. A client \
            shows a `type` it does not know generically.
            """,
        auth: .bearer,
        parameters: [
            .init("limit", in: .query, description: "Events in a page, 1 to 100 (default 20).", value: .integer(minimum: 1, maximum: 100)),
            .init("after", in: .query, description: "The `next` of the page before (opaque).", value: .string(maxLength: 128)),
        ],
        replies: [.init(status: 200, description: "A page of events.", body: .schema("SecurityEventPage"))],
        errors: [400: "`invalid_request`: `limit` out of range, or `after` not a cursor of this server.", 503: "`service_unavailable`."])

    /// `GET /admin/api/figures`: Sign-ups, logins, refreshes and codes over time.
    public static let adminFigures = Endpoint(
        .get, "/admin/api/figures", operationId: "adminFigures", tag: "Admin", summary: "Sign-ups, logins, refreshes and codes over time",
        details: """
            Per hour for the last 24 hours and per day for the last 30 days (UTC), oldest first; the last bucket is the \
            current hour or day, and a bucket with no activity is there with zeros. Counted by every server on the \
            database in memory and added to its hourly counters every 2 seconds (this server's are added before the \
            reply, so they are exact to the moment; another server's may be up to 2 seconds behind).
            """,
        auth: .operator,
        replies: [.init(status: 200, description: "The figures.", body: .schema("AdminFigures"))],
        errors: operatorRefusals)
}
