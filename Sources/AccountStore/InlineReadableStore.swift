import Foundation

/// A store whose reads are quick local work, so they may run on the caller's own thread.
///
/// The server answers `GET /auth/me` inside its HTTP event thread with this, without handing the
/// request to a task and the read to a store thread and back. A caller that gets `nil` (no
/// connection free at this instant) takes the ordinary asynchronous ``AccountStore/read(_:)``.
///
/// ```swift
/// if let inline = store as? any InlineReadableStore,
///    let user = try inline.readInline({ try $0.user(id: id) }) { … }
/// ```
public protocol InlineReadableStore: AccountStore {
    /// Runs `body` in a read-only transaction on the calling thread with a connection that is free
    /// right now; returns `nil` without running it when none is. `body` must not block.
    func readInline<T>(_ body: (any StoreTransaction) throws -> T) throws -> T?

    /// ``AccountStore/sessionWithUser(id:)`` on the calling thread: the answer (`.some(nil)` when
    /// there is no such session), or `nil` when no connection is free right now.
    func sessionWithUserInline(id: UUID) throws -> SessionWithUser??
}

extension InlineReadableStore {
    public func sessionWithUserInline(id: UUID) throws -> SessionWithUser?? {
        try readInline { try $0.sessionWithUser(id: id) }
    }
}

extension AccountStore {
    /// ``AccountStore/read(_:)`` run on the calling thread when this store reads locally and one
    /// of its inline connections is free right now (``InlineReadableStore/readInline(_:)``); the
    /// ordinary read otherwise. For a task's short indexed lookup, such as a login's account: no
    /// hop to a store thread and back.
    public func readPreferringInline<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        if let local = self as? any InlineReadableStore, let value = try local.readInline(body) { return value }
        return try await read(body)
    }
}
