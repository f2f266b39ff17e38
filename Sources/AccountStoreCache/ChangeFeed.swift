import AccountStore

/// What a ``ChangeFeed`` says of the read model as a lookup begins.
public enum ModelStanding: Sendable, Equatable {
    /// Every change other writers committed before now has reached the model: it may answer, and
    /// what the lookup reads may be remembered.
    case current
    /// Not confirmed just now, but no change can be missed: the next confirmation finds every one
    /// committed meanwhile (and clears the model) before the model answers again. The lookup
    /// reads, and what it read may be remembered.
    case unconfirmed
    /// Changes may go unreported (a listener that is not caught up): the lookup reads, and
    /// remembers nothing.
    case untrusted
}

/// How a backend keeps a ``CachingAccountStore``'s read model fresh against the writes that do
/// not go through the cache: other servers, commands, an operator's SQL.
///
/// Only what is particular to a database lives behind it: SQLite compares what its file says
/// about commits (`PRAGMA data_version`, the WAL-index header) before each lookup and clears the
/// model when another connection committed; PostgreSQL listens for the change notifications its
/// triggers send, drops what each names, and says when it is caught up. A backend makes a feed
/// for one model (`changeFeed(reportingTo:)`), which reports there; the cache owns both.
public protocol ChangeFeed: AnyObject, Sendable {
    /// The model's standing for a lookup on the calling thread, which must not wait; `nil` when
    /// that cannot be told now without waiting (no connection free to check with).
    func standingNow() -> ModelStanding?

    /// The model's standing for a lookup that begins now; it may wait for the model to become
    /// current (a round trip that proves every earlier change was applied).
    func standing() async -> ModelStanding

    /// Refuses a held session the feed cannot vouch for, so the lookup reads it again; `nil` when
    /// it vouches for every held one. Made once, not per lookup.
    var heldSessionFilter: (@Sendable (SessionWithUser) -> Bool)? { get }

    /// Whether the feed's change listener is caught up now; `nil` for a feed without one.
    var listenerCaughtUp: Bool? { get }

    /// Times the feed's change listener connected (each empties the model); 0 without one.
    var listenerConnects: Int { get }

    /// Stops what the feed runs (a listening connection and its thread); the cache calls it when
    /// it closes.
    func stop()
}
