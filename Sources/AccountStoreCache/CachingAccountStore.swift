import AccountStore
import Foundation

/// A store in front of another that answers authentication's lookup (``sessionWithUser(id:)``,
/// ``sessionWithUserInline(id:)``) from a ``SessionReadModel`` whenever that is exact, and reads
/// through otherwise; everything else goes to the store behind it.
///
/// - **This process's writes** reach the model through the transaction itself: ``write(_:)``
///   gives the backend's transaction the write's ``SessionReadModel/WriteScope`` as its
///   ``ChangeObserver``, and every statement that changes an account or a session names it
///   before it runs (``AnnouncesChanges``). So every write of this process must go through the
///   cache, never the store behind it.
/// - **Writes of other processes** reach it through the backend's ``ChangeFeed``, which says
///   before each lookup whether the model may answer.
///
/// ```swift
/// let sqlite = try SQLiteAccountStore(path: "account.sqlite")
/// let store = CachingAccountStore(sqlite, capacity: 10_000, feed: sqlite.changeFeed(reportingTo:))
/// ```
public final class CachingAccountStore: InlineReadableStore {
    /// The store behind the cache.
    public let base: any AccountStore
    /// The store behind, when it reads on the caller's thread.
    private let inlineBase: (any InlineReadableStore)?
    private let model: SessionReadModel
    /// What keeps the model fresh against other writers.
    public let feed: any ChangeFeed
    private let heldSessionFilter: (@Sendable (SessionWithUser) -> Bool)?

    /// A cache of at most `capacity` sessions (at least 1) in front of `base`, kept fresh by the
    /// feed `makeFeed` makes for its model.
    public init(_ base: any AccountStore, capacity: Int, feed makeFeed: (SessionReadModel) throws -> any ChangeFeed) rethrows {
        self.base = base
        inlineBase = base as? any InlineReadableStore
        model = SessionReadModel(capacity: capacity)
        feed = try makeFeed(model)
        heldSessionFilter = feed.heldSessionFilter
    }

    deinit {
        feed.stop()
    }

    // MARK: The lookup

    /// The session with its account: from the model when the feed says it is current and it holds
    /// them, else read from the store behind, and remembered unless the feed distrusts the model.
    public func sessionWithUser(id: UUID) async throws -> SessionWithUser? {
        switch lookup(id, await feed.standing()) {
        case .held(let found):
            return found
        case .read(let ticket):
            let found = try await base.sessionWithUser(id: id)
            if let ticket { model.remember(found, ticket) }
            return found
        }
    }

    /// ``sessionWithUser(id:)`` on the calling thread: from the model, or read inline by the store
    /// behind and remembered; ``InlineAnswer/busy`` when neither can be done without waiting.
    ///
    /// A store behind that cannot read inline leaves only the model: a session it does not hold
    /// is busy here (not counted), and the ordinary lookup counts the miss.
    public func sessionWithUserInline(id: UUID) throws -> InlineAnswer<SessionWithUser?> {
        guard let standing = feed.standingNow() else { return .busy }
        guard let inlineBase else {
            guard standing == .current, let found = model.held(id, usable: heldSessionFilter) else { return .busy }
            return .answered(found)
        }
        switch lookup(id, standing) {
        case .held(let found):
            return .answered(found)
        case .read(let ticket):
            let answer = try inlineBase.readInline { try $0.sessionWithUser(id: id) }
            if let ticket, case .answered(let found) = answer { model.remember(found, ticket) }
            return answer
        }
    }

    /// What a lookup does next.
    private enum Step {
        /// Answer what the model holds.
        case held(SessionWithUser)
        /// Read, and remember what was read with the ticket (nothing without one).
        case read(remembering: SessionReadModel.Ticket?)
    }

    /// The model's answer for session `id` when `standing` lets it answer, else how to read.
    private func lookup(_ id: UUID, _ standing: ModelStanding) -> Step {
        switch standing {
        case .current:
            switch model.find(id, usable: heldSessionFilter) {
            case .hit(let found): return .held(found)
            case .miss(let ticket): return .read(remembering: ticket)
            }
        case .unconfirmed:
            return .read(remembering: model.bypass())
        case .untrusted:
            // Counted as a miss; nothing read now is remembered.
            _ = model.bypass()
            return .read(remembering: nil)
        }
    }

    /// The model's counters, with the feed's listener's.
    public var counts: SessionReadModel.Counts {
        var counts = model.counts
        counts.listenerCaughtUp = feed.listenerCaughtUp
        counts.listenerConnects = feed.listenerConnects
        return counts
    }

    // MARK: The store behind

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await base.read(body)
    }

    /// The store behind's write, whose statements tell the model what they are about to change
    /// before they run; the model takes nothing new from the first change until the transaction
    /// has ended.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let scope = model.beginWrite()
        defer { model.endWrite(scope) }
        return try await base.write { transaction in
            transaction.announceChanges(to: scope)
            return try body(transaction)
        }
    }

    /// The store behind's inline read; ``InlineAnswer/busy`` when it reads only on its threads.
    public func readInline<T>(_ body: (any StoreTransaction) throws -> T) throws -> InlineAnswer<T> {
        guard let inlineBase else { return .busy }
        return try inlineBase.readInline(body)
    }

    public func ping() async throws { try await base.ping() }

    @discardableResult public func migrate() async throws -> Int { try await base.migrate() }

    public func rowCounts() async throws -> [String: Int] { try await base.rowCounts() }

    public func whenMailQueued(_ hook: @escaping @Sendable () -> Void) { base.whenMailQueued(hook) }

    /// Stops the feed, then closes the store behind.
    public func close() async {
        feed.stop()
        await base.close()
    }
}

extension AccountStore {
    /// The counters of the store's read model when it is a ``CachingAccountStore``; `nil` when it
    /// keeps none.
    public var readModelCounts: SessionReadModel.Counts? { (self as? CachingAccountStore)?.counts }
}
