import Foundation

/// What a read on the caller's own thread gave: its answer, or nothing because it could not be
/// made without waiting.
public enum InlineAnswer<Value> {
    /// The read ran (or a cache answered); `Value` is what it said, `nil` included.
    case answered(Value)
    /// Nothing was read: no connection was free at this instant, or the answer needs a wait.
    /// Take the ordinary asynchronous path.
    case busy
}

extension InlineAnswer: Sendable where Value: Sendable {}
extension InlineAnswer: Equatable where Value: Equatable {}

/// A store whose reads are quick local work, so they may run on the caller's own thread.
///
/// The server answers `GET /auth/me` inside its HTTP event thread with this, without handing the
/// request to a task and the read to a store thread and back. A caller that gets
/// ``InlineAnswer/busy`` takes the ordinary asynchronous ``AccountStore/read(_:)``.
///
/// ```swift
/// if let inline = store as? any InlineReadableStore,
///    case .answered(let user) = try inline.readInline({ try $0.user(id: id) }) { … }
/// ```
public protocol InlineReadableStore: AccountStore {
    /// Runs `body` in a read-only transaction on the calling thread with a connection that is free
    /// right now; ``InlineAnswer/busy`` without running it when none is. `body` must not block.
    func readInline<T>(_ body: (any StoreTransaction) throws -> T) throws -> InlineAnswer<T>

    /// ``AccountStore/sessionWithUser(id:)`` on the calling thread: the answer (`nil` inside when
    /// there is no such session), or ``InlineAnswer/busy`` when it cannot be given without waiting.
    func sessionWithUserInline(id: UUID) throws -> InlineAnswer<SessionWithUser?>
}

extension InlineReadableStore {
    public func sessionWithUserInline(id: UUID) throws -> InlineAnswer<SessionWithUser?> {
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
        if let local = self as? any InlineReadableStore, case .answered(let value) = try local.readInline(body) { return value }
        return try await read(body)
    }
}
