/// Errors every store backend reports in the same terms.
///
/// A conflict is an answer (the name is taken); the other two carry a ``Reason``: a message for
/// operators (start-up errors, tests) and the database's SQLSTATE. Request logs and metrics use
/// only ``kind`` and ``sqlState``, which never hold a value from a row or a statement.
public enum StoreError: Error, Sendable, Equatable {
    /// A unique key is already used; `field` is `"username"`, `"email"` or another column name.
    case conflict(field: String)
    /// The database cannot be reached or refused the operation for a reason that may pass.
    case unavailable(reason: Reason)
    /// A bug or corrupted data: the statement failed for a reason that will not pass.
    case failure(reason: Reason)

    /// Why a store call failed.
    ///
    /// Written like a string where only the message is known: `.unavailable(reason: "store is closed")`.
    public struct Reason: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
        /// What failed, for an operator: it may name a host, port, table or column, never a value
        /// from a row or a parameter. Not for per-request logs.
        public var message: String
        /// The five-character SQLSTATE PostgreSQL reported (or the class 08 state of a connection
        /// that failed); `nil` for other backends and for failures outside the database.
        public var sqlState: String?

        public init(_ message: String, sqlState: String? = nil) {
            self.message = message
            self.sqlState = sqlState
        }

        public init(stringLiteral message: String) { self.init(message) }

        public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }
    }

    /// `conflict`, `unavailable` or `failure`.
    public var kind: String {
        switch self {
        case .conflict: "conflict"
        case .unavailable: "unavailable"
        case .failure: "failure"
        }
    }

    /// The SQLSTATE behind the error, if the database reported one.
    public var sqlState: String? {
        switch self {
        case .conflict: nil
        case .unavailable(let reason), .failure(let reason): reason.sqlState
        }
    }

    /// A transaction lost a race for a row and may succeed when it runs again (SQLSTATE 40001,
    /// serialization failure). A body throws it when it finds a row changed under it; the
    /// PostgreSQL store then runs the transaction again, as after the database's own 40001.
    public static let serializationFailure = StoreError.unavailable(
        reason: Reason("a concurrent transaction changed the row first", sqlState: "40001"))
}
