import AccountCore
/// The replies of the admin API (`/admin/api/...`).
enum AdminSchemas {
    static var all: [String: JSONValue] {
        [
            "AdminAuditEvent": Schema.object(
                [
                    "id": FieldSchemas.uuid,
                    "at": Schema.string("When it was done.", format: "date-time"),
                    "actor": Schema.string("`account:<id>` (an operator of the console) or `cli:<name>` (the server's command line)."),
                    "target_id": Schema.string("The account acted on.", format: "uuid", nullable: true),
                    "action": Schema.string(
                        "`admin_granted`, `admin_revoked`, `account_disabled`, `account_enabled`, `sessions_ended`, `verification_resent`, "
                            + "`second_factor_removed`, `account_deleted`, …"),
                    "reason": Schema.string("The operator's reason.", nullable: true),
                    "request_id": Schema.string("The console request's `X-Request-Id`; `null` from the command line.", nullable: true),
                ], required: ["id", "at", "actor", "target_id", "action", "reason", "request_id"]),
            "AdminAuditPage": Schema.object(
                [
                    "events": Schema.array(Schema.ref("AdminAuditEvent"), description: "Newest first."),
                    "next": Schema.string("`after` for the next page; `null` on the last.", nullable: true),
                ], required: ["events", "next"]),
            "AdminUser": Schema.object(userRow, required: userRowKeys),
            "AdminUserDetail": Schema.object(
                userRow.merging(["disabled_at": Schema.string("When it was disabled; `null` while it may sign in.", format: "date-time", nullable: true)]) { $1 },
                required: userRowKeys + ["disabled_at"]),
            "AdminUserPage": Schema.object(
                [
                    "users": Schema.array(
                        Schema.ref("AdminUser"),
                        description: "Newest first, or by the key `q` is a prefix of; up to `limit`, maybe fewer (even none) before the last page."),
                    "next": Schema.string("`after` for the next page; `null` on the last (only `null` ends a search).", nullable: true),
                ], required: ["users", "next"]),
            "AdminAccountPage": Schema.object(
                [
                    "user": Schema.ref("AdminUserDetail"),
                    "sessions": Schema.array(
                        Schema.object(
                            [
                                "id": FieldSchemas.uuid,
                                "device_name": Schema.string("The `User-Agent` of the login that opened it.", nullable: true),
                                "client_address": FieldSchemas.sessionAddress,
                                "created_at": FieldSchemas.time,
                                "last_used_at": FieldSchemas.time,
                            ], required: ["id", "device_name", "client_address", "created_at", "last_used_at"]),
                        description: "Live sessions, newest first."),
                    "passkeys": Schema.array(
                        Schema.object(
                            [
                                "id": FieldSchemas.uuid, "name": Schema.string(), "created_at": FieldSchemas.time,
                                "last_used_at": Schema.string("Its last login; `null` before the first.", format: "date-time", nullable: true),
                            ], required: ["id", "name", "created_at", "last_used_at"]),
                        description: "Oldest first."),
                    "second_factor": Schema.object(
                        ["totp": Schema.boolean("An authenticator app is on."), "recovery_codes_left": Schema.integer(minimum: 0)],
                        required: ["totp", "recovery_codes_left"]),
                    "events": Schema.array(Schema.ref("SecurityEvent"), description: "The account's 20 newest security events, newest first."),
                ], required: ["user", "sessions", "passkeys", "second_factor", "events"]),
            "AdminActionRequest": Schema.object(
                ["reason": Schema.string("Why; kept with the audit event.", minLength: 1, maxLength: 500)], required: ["reason"]),
            "AdminSessionsEnded": Schema.object(["ended": Schema.integer("Sessions ended.", minimum: 0)], required: ["ended"]),
        ]
    }

    /// A row of the account search.
    static let userRow: [String: JSONValue] = [
        "id": FieldSchemas.uuid,
        "username": Schema.string(),
        "email": Schema.string(),
        "mbti": Schema.ref("MBTI"),
        "email_verified": Schema.boolean(),
        "mfa_enabled": Schema.boolean("An authenticator app is on."),
        "disabled": Schema.boolean(),
        "is_admin": Schema.boolean(),
        "created_at": FieldSchemas.time,
        "last_login_at": Schema.string("When its newest session was opened; `null` if it never signed in.", format: "date-time", nullable: true),
    ]
    static let userRowKeys = ["id", "username", "email", "mbti", "email_verified", "mfa_enabled", "disabled", "is_admin", "created_at", "last_login_at"]
}
