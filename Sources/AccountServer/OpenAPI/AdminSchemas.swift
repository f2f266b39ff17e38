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
                    "action": Schema.string("`admin_granted`, `admin_revoked`, `account_disabled`, `account_enabled`, `sessions_ended`, …"),
                    "reason": Schema.string("The operator's reason.", nullable: true),
                    "request_id": Schema.string("The console request's `X-Request-Id`; `null` from the command line.", nullable: true),
                ], required: ["id", "at", "actor", "target_id", "action", "reason", "request_id"]),
            "AdminAuditPage": Schema.object(
                [
                    "events": Schema.array(Schema.ref("AdminAuditEvent"), description: "Newest first."),
                    "next": Schema.string("`after` for the next page; `null` on the last.", nullable: true),
                ], required: ["events", "next"]),
        ]
    }
}
