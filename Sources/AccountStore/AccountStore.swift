import Foundation

/// The storage the server needs, independent of the database behind it.
///
/// Work happens in transactions: `write` runs `body` in one transaction that commits when `body`
/// returns and rolls back when it throws, so a sign-up, its code and its mail commit together or
/// not at all. `body` runs on a thread of the store's own; it must not block on anything but the
/// transaction it is given. Backends may run `body` again when the database reports a
/// serialization conflict, so it must have no effects outside the transaction.
///
/// ```swift
/// let user = try await store.read { try $0.user(emailKey: "mina@example.com") }
/// ```
public protocol AccountStore: Sendable {
    /// Runs `body` in a read-only transaction.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T
    /// Runs `body` in a read-write transaction that commits when it returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T
    /// Answers quickly whether the database is reachable (for `/readyz`); throws if not.
    func ping() async throws
    /// Applies pending migrations; returns the schema version now in force.
    @discardableResult func migrate() async throws -> Int
    /// Rows in every table, by table name: for operators, and for tests that prove a refused
    /// request wrote nothing.
    func rowCounts() async throws -> [String: Int]
    /// Closes connections; later calls throw.
    func close() async
    /// Calls `hook` after every committed ``write(_:)`` that queued outbox rows
    /// (``OutboxTransaction/enqueueMail(_:)``), never for one that rolled back: how the mail
    /// dispatcher learns there is something to send. A later call replaces the hook.
    func whenMailQueued(_ hook: @escaping @Sendable () -> Void)
    /// The session `id` with its account, as ``SessionsTransaction/sessionWithUser(id:)`` reads
    /// them: what every authenticated request asks. A backend may read it in fewer round trips than
    /// a transaction takes; a cache in front of the store answers from memory when that is exact.
    func sessionWithUser(id: UUID) async throws -> SessionWithUser?
}

extension AccountStore {
    public func sessionWithUser(id: UUID) async throws -> SessionWithUser? {
        try await read { try $0.sessionWithUser(id: id) }
    }
}
