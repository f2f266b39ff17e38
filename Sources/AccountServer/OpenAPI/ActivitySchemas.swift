import AccountAPI
import AccountCore

/// The replies of the security history and the operators' figures.
enum ActivitySchemas {
    static var all: [String: JSONValue] {
        [
            "SecurityEvent": Schema.object(
                [
                    "id": FieldSchemas.uuid,
                    "at": Schema.string("When it happened.", format: "date-time"),
                    "type": Schema.string(
                        "What happened: " + SecurityEventKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
                            + ". More may be added; show an unknown one generically."),
                    "client_address": Schema.string("The address the request came from.", nullable: true),
                    "device_name": Schema.string("The device, as its `User-Agent` named it.", nullable: true),
                    "detail": [
                        "type": ["object", "null"], "additionalProperties": Schema.string(),
                        "description": """
                            More facts, all strings: a login's `method` (`password`, `totp`, `recovery_code`, `passkey`, \
                            `email_code`, `signup`, `apple`); a failure's `check` (`password`, `second_factor`) and `via` (the \
                            endpoint: `login`, `mfa_verify`, `password_change`, …); ended sessions' `reason` (`logout`, \
                            `logout_others`, `logout_all`, `ended`, `password_changed`, `password_reset`, `mfa_enabled`, \
                            `mfa_disabled`, `refresh_token_reused`, `account_disabled`, `operator`) and `count`; a passkey's \
                            `name`; recovery codes `left`.
                            """,
                    ],
                ], required: ["id", "at", "type", "client_address", "device_name", "detail"]),
            "SecurityEventPage": Schema.object(
                [
                    "events": Schema.array(Schema.ref("SecurityEvent"), description: "Newest first."),
                    "next": Schema.string("`after` for the next page; `null` on the last.", nullable: true),
                ], required: ["events", "next"]),
            "FiguresBucket": Schema.object(
                [
                    "start": Schema.string("The start of the hour or day (UTC).", format: "date-time"),
                    "signups": Schema.integer("Accounts made.", minimum: 0),
                    "logins": Schema.object(
                        [
                            "succeeded": Schema.integer("Sessions opened by a login (password, second factor, passkey, a sign-up's code).", minimum: 0),
                            "failed": Schema.integer("A wrong password or second-factor code, an unknown account, a passkey refused.", minimum: 0),
                            "mfa_required": Schema.integer("A right password whose login waits for the second factor.", minimum: 0),
                            "refused": Schema.integer("Not checked or not allowed: the login back-off, a spent second-factor step, a disabled account, an unverified address.", minimum: 0),
                        ], required: ["succeeded", "failed", "mfa_required", "refused"]),
                    "refreshes": Schema.integer("Refresh tokens traded for a new pair.", minimum: 0),
                    "codes_sent": Schema.integer("Codes mailed (sign-up, verification, password reset).", minimum: 0),
                ], required: ["start", "signups", "logins", "refreshes", "codes_sent"]),
            "AdminFigures": Schema.object(
                [
                    "hourly": Schema.array(Schema.ref("FiguresBucket"), description: "24 hours, oldest first; the last is the current hour."),
                    "daily": Schema.array(Schema.ref("FiguresBucket"), description: "30 days, oldest first; the last is today (UTC)."),
                ], required: ["hourly", "daily"]),
        ]
    }
}
