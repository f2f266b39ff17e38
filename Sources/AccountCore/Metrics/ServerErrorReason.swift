import AccountStore

/// Why a request got a 5xx, in terms fit for a log line and a metric label: a kind from a fixed
/// set and, when the database gave one, its SQLSTATE. Never a message, a value or SQL text.
///
/// ```swift
/// ServerErrorReason(StoreError.serializationFailure)   // store_unavailable, 40001
/// ```
package struct ServerErrorReason: Hashable, Sendable {
    /// `store_unavailable`, `store_failure`, `store_conflict` (a taken key no handler expected),
    /// `service_unavailable` and `internal_error` (thrown as such by a handler: hashing pool
    /// full, database not ready, no signing key), or `unexpected_error` (any other error).
    package let kind: String
    /// The SQLSTATE behind a store error, if any (five digits or upper-case letters).
    package let sqlState: String?

    /// Everything else a metric counts once there are this many distinct reasons.
    package static let overflow = ServerErrorReason(kind: "other", sqlState: nil)

    package init(kind: String, sqlState: String?) {
        self.kind = kind
        self.sqlState = sqlState
    }

    /// The reason of whatever a handler threw; the one place errors are sorted into reasons.
    package init(_ error: any Error) {
        switch error {
        case let error as StoreError:
            self.init(kind: "store_" + error.kind, sqlState: error.sqlState)
        case let error as APIError:
            self.init(kind: error.code.rawValue, sqlState: nil)
        default:
            self.init(kind: "unexpected_error", sqlState: nil)
        }
    }
}
