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
}
