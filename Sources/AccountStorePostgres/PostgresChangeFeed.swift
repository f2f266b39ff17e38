import AccountStore
import AccountStoreCache
import Foundation

/// What keeps a cache in front of a ``PostgresAccountStore`` fresh against every other writer of
/// the database (other servers, `account-server` commands, an operator's SQL): the change
/// notifications its triggers send, applied by a listening connection of its own
/// (`PGChangeListener`), which also says when the model may be trusted.
///
/// The model answers only while the listener is caught up, and as ``Freshness`` says: `exact`
/// after a round trip through the notification channel that began after the lookup, `notified`
/// at once. Untrusted, every lookup reads and nothing is remembered
/// (``ModelStanding/untrusted``).
///
/// A session's last use moves forward with each refresh without a notification (so refreshes need
/// not queue behind PostgreSQL's notification lock; only a refresh from a new client address
/// announces one, so the held address stays exact), so a held one may be older than the
/// database's. That only ever makes a session look less live; with `sessionIdle` (the idle
/// lifetime, judged by `now`) a held session that would look idle-expired is read again instead of
/// answered (``heldSessionFilter``). Without it, held sessions are answered as held.
public final class PostgresChangeFeed: ChangeFeed {
    /// When the read model may answer a lookup.
    public enum Freshness: String, Sendable, CaseIterable {
        /// After a round trip through the notification channel that began after the lookup: every
        /// change committed before the lookup began has been applied (exact; batched, so one round
        /// trip serves every lookup waiting at once).
        case exact
        /// At once while the listener is caught up: another writer's commit is seen once its
        /// notification has been delivered (well under a millisecond on one machine, but after
        /// the commit returned to its client).
        case notified
    }

    private let listener: PGChangeListener
    private let freshness: Freshness
    public let heldSessionFilter: (@Sendable (SessionWithUser) -> Bool)?

    /// Starts listening to the database at `url` for `model`, on a connection and thread of its own.
    init(url: String, model: SessionReadModel, freshness: Freshness, sessionIdle: TimeInterval?, now: @escaping @Sendable () -> Date) {
        listener = PGChangeListener(url: url, model: model)
        self.freshness = freshness
        // A held last use a few seconds older than the caller's clock read apart from this one is
        // still judged by it.
        if let sessionIdle {
            heldSessionFilter = { found in now().timeIntervalSince(found.session.lastUsedAt) < sessionIdle - 5 }
        } else {
            heldSessionFilter = nil
        }
    }

    /// Current while caught up, with `notified`; never without waiting with `exact`.
    public func standingNow() -> ModelStanding? {
        freshness == .notified && listener.isCaughtUp ? .current : .untrusted
    }

    /// `exact`: current once a heartbeat sent after this call came back; `notified`: while caught up.
    public func standing() async -> ModelStanding {
        switch freshness {
        case .exact: await listener.catchUp() ? .current : .untrusted
        case .notified: listener.isCaughtUp ? .current : .untrusted
        }
    }

    public var listenerCaughtUp: Bool? { listener.isCaughtUp }
    public var listenerConnects: Int { listener.connectCount }

    /// Stops the listener and closes its connection.
    public func stop() { listener.stop() }
}
