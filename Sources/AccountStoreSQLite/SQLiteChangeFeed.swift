import AccountStore
import AccountStoreCache
import Synchronization

/// What tells a cache in front of a ``SQLiteAccountStore`` that someone else committed to its
/// file: another store on it, another process, an operator's `sqlite3`.
///
/// Before each lookup the cache asks ``standingNow()``: the feed borrows an inline read
/// connection and compares what the file says about commits with what it last confirmed on that
/// connection. The WAL-index header in shared memory answers without a statement while it reads
/// as it did before the connection's last confirmation (nobody has committed since); otherwise
/// the connection's `PRAGMA data_version` does (unchanged: nobody committed), and when it moved,
/// the writer's own `data_version`, which moves only for commits of other connections, tells
/// whether the commit was this store's (already announced to the model) or someone else's (the
/// model is cleared first). A check that cannot be made now (the writer is busy) is
/// ``ModelStanding/unconfirmed``: the next confirmation still sees every commit since the last.
public final class SQLiteChangeFeed: ChangeFeed {
    private let model: SessionReadModel
    private let inline: InlineReaders
    private let gate: WriterGate
    private let path: String
    private let fileChecks = Atomic<Int>(0)

    init(model: SessionReadModel, inline: InlineReaders, gate: WriterGate, path: String) {
        self.model = model
        self.inline = inline
        self.gate = gate
        self.path = path
    }

    /// The model's standing, checked with an inline connection; `nil` when none is free now.
    public func standingNow() -> ModelStanding? {
        guard case .answered(let standing)? = try? inline.lend(check(with:)) else { return nil }
        return standing
    }

    /// ``standingNow()``, unconfirmed when no inline connection is free (the check never waits).
    public func standing() async -> ModelStanding { standingNow() ?? .unconfirmed }

    /// Every held session may be answered: every commit clears or drops what it changed.
    public var heldSessionFilter: (@Sendable (SessionWithUser) -> Bool)? { nil }
    public var listenerCaughtUp: Bool? { nil }
    public var listenerConnects: Int { 0 }

    /// Nothing runs between lookups.
    public func stop() {}

    /// How many checks needed SQLite's own answer (`PRAGMA data_version`) because the WAL-index
    /// header had changed (or could not be read) since the connection's last confirmation.
    public var fileCheckCount: Int { fileChecks.load(ordering: .relaxed) }

    /// Whether nothing unknown can have changed the file since the model was filled, told with
    /// `lent`: its `data_version` is as last confirmed (nobody committed since), or the writer's
    /// says whether anyone but the writer did (then the model is cleared first).
    private func check(with lent: InlineReaders.Lent) -> ModelStanding {
        let header = lent.walIndex??.current()
        if let header, header == lent.confirmedHeader { return .current }
        // Read after `header`, so a confirmation below covers every commit before it.
        guard let seen = try? lent.connection.dataVersion() else { return .unconfirmed }
        if seen != lent.confirmedVersion {
            // Read after `seen`, so it covers every commit `seen` does.
            guard gate.foreignCommits(onChange: model.clear) != nil else { return .unconfirmed }
            lent.confirmedVersion = seen
        }
        lent.confirmedHeader = header
        fileChecks.add(1, ordering: .relaxed)
        // Mapped once the connection has read the file, so SQLite has made its `-shm` file.
        if lent.walIndex == nil { lent.walIndex = .some(WALIndexWatch(databasePath: path)) }
        return .current
    }
}
