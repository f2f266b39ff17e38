import AccountStore

extension StoreError {
    /// Translates a PostgreSQL failure into the store's terms; the one place that decides.
    ///
    /// Only the primary message is kept: PostgreSQL's detail line repeats the values of a
    /// conflicting row, which may be secrets (token hashes) or personal data (addresses). The
    /// SQLSTATE goes along so logs and metrics can say why without any message. A lost connection
    /// without a state of its own gets class 08's `08006` (connection failure).
    init(postgresMessage message: String, sqlState reported: String?, constraint: String? = nil, connectionLost: Bool) {
        let sqlState = SQLState.validated(reported) ?? (connectionLost ? SQLState.connectionFailure : nil)
        let reason = Reason(message, sqlState: sqlState)
        guard let sqlState, !connectionLost else {
            self = .unavailable(reason: reason)
            return
        }
        if sqlState == SQLState.uniqueViolation {
            self = .conflict(field: Self.conflictField(constraint))
        } else if SQLState.isTransient(sqlState) {
            self = .unavailable(reason: reason)
        } else {
            self = .failure(reason: reason)
        }
    }

    /// The field a unique violation is about, named the way callers know it.
    static func conflictField(_ constraint: String?) -> String {
        guard let constraint else { return "unknown" }
        return conflictFields[constraint] ?? constraint
    }

    /// The unique constraints of ``SchemaBaseline``, by the names it gives them.
    private static let conflictFields: [String: String] = [
        "users_pkey": "id",
        "users_username_key_key": "username",
        "users_email_key_key": "email",
        "users_username_skeleton_key": "username",
        "users_username_display_skeleton_key": "username",
        "pending_signups_pkey": "email",
        "pending_signups_username_key_key": "username",
        "pending_signups_username_skeleton_key": "username",
        "pending_signups_username_display_skeleton_key": "username",
        "sessions_pkey": "id",
        "codes_pkey": "purpose",
        "verification_tokens_pkey": "hash",
        "signing_keys_pkey": "kid",
        "settings_pkey": "name",
        "outbox_pkey": "id",
    ]
}

/// The SQLSTATE codes the store acts on.
enum SQLState {
    static let uniqueViolation = "23505"
    static let serializationFailure = "40001"
    static let deadlockDetected = "40P01"
    /// A connection that broke (libpq reports no state of its own then).
    static let connectionFailure = "08006"
    /// The client could not connect at all.
    static let cannotConnect = "08001"

    /// `state` if it has the form of a SQLSTATE (five digits or upper-case letters), else `nil`,
    /// so nothing else ever reaches a log line or a metric label.
    static func validated(_ state: String?) -> String? {
        guard let state, state.utf8.count == 5,
            state.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
        else { return nil }
        return state
    }

    /// Failures after which the same transaction may succeed when run again.
    static func isRetryable(_ state: String?) -> Bool {
        state == serializationFailure || state == deadlockDetected
    }

    /// Failures that may pass: lost connections (class 08), shutdowns and restarts (57P01-57P03),
    /// cancellations (57014), lack of resources (53), lock timeouts (55P03) and retryable conflicts.
    static func isTransient(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57") || state == "55P03"
            || isRetryable(state)
    }
}
