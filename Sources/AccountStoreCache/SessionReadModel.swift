import AccountStore
import Foundation
import Synchronization

/// Live sessions with their accounts held in memory, so that an authenticated request need not
/// read the database: the read model of a ``CachingAccountStore``.
///
/// Exact by construction, never by timing:
/// - **Every write of this process** goes through the cache, whose ``WriteScope`` hears from the
///   transaction what each statement is about to change (``ChangeObserver``) and drops it
///   *before* the statement runs, and keeps the model from taking new entries until the
///   transaction has ended (``beginWrite()``, ``endWrite(_:)``); so a reply sent after a write was
///   acknowledged can only come from the database or from an entry read after the commit.
/// - **A read that raced a write** cannot put back what it read: an entry is taken only with the
///   ``Ticket`` of the lookup that missed, and only if no write began or ended since (one
///   generation for the whole model, raised by each).
/// - **Writes of other processes** are the backend's ``ChangeFeed``'s to detect before each
///   lookup; it calls ``clear()`` when it cannot rule them out, or
///   ``forgetSession(_:)``/``forgetUser(_:)`` when it is told what they changed.
///
/// Bounded: at most `capacity` sessions, filled on first read (nothing at start), replaced in
/// CLOCK order (an entry read since the hand last passed gets a second chance). A change of an
/// account drops its sessions at once through a fixed table of per-account epochs (hashed by
/// account id), so no index of sessions by account is kept; two accounts sharing an epoch only
/// cost each other a read.
public final class SessionReadModel: Sendable {
    /// What ``find(_:)`` answered.
    public enum Lookup {
        case hit(SessionWithUser)
        /// Not held: read the database, then hand what it said to ``remember(_:_:)`` with this.
        case miss(Ticket)
    }

    /// The model's generation when a lookup missed.
    public struct Ticket: Sendable {
        fileprivate let generation: UInt64
    }

    /// The counters `/metrics` shows (``CachingAccountStore/counts``).
    public struct Counts: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        /// Entries dropped, or the whole model cleared, because of a write.
        public var invalidations = 0
        /// Times the whole model was dropped because another process wrote the database.
        public var clears = 0
        /// Sessions or accounts dropped because another process said it changed them (PostgreSQL's
        /// change notifications).
        public var notifications = 0
        public var evictions = 0
        public var entries = 0
        public var capacity = 0
        /// Whether the model is trusted now, where that depends on a change listener (PostgreSQL:
        /// connected and caught up); `nil` where it does not (SQLite).
        public var listenerCaughtUp: Bool?
        /// Times the change listener connected (each empties the model); 0 where there is none.
        public var listenerConnects = 0
    }

    /// One held session: immutable (a change replaces or drops it), and a class, so a lookup
    /// takes one reference under the lock and copies the records out after it; copying them
    /// there retained each of their strings with the lock held, on the same records from every
    /// HTTP thread.
    private final class Entry: Sendable {
        let session: SessionRecord
        let user: UserRecord
        /// The account's epoch when it was read; stale once the epoch moved on.
        let userEpoch: UInt32

        init(session: SessionRecord, user: UserRecord, userEpoch: UInt32) {
            self.session = session
            self.user = user
            self.userEpoch = userEpoch
        }
    }

    private struct State {
        var slots: [Entry?] = []
        /// Per slot: read since the CLOCK hand last passed.
        var referenced: [Bool] = []
        var index: [UUID: Int] = [:]
        var hand = 0
        /// Raised by every write that touches the model (when it begins and ends) and by every clear.
        var generation: UInt64 = 0
        /// Write transactions that changed something and have not ended: no entry is taken meanwhile.
        var openWrites = 0
        var userEpochs: [UInt32]
        var counts = Counts()
    }

    /// How many sessions it holds at most.
    public let capacity: Int
    private static let epochSlots = 4096
    private let state: Mutex<State>

    /// A model of at most `capacity` sessions (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        var initial = State(userEpochs: [UInt32](repeating: 0, count: Self.epochSlots))
        initial.counts.capacity = self.capacity
        state = Mutex(initial)
    }

    /// The held session `id` with its account, or a ticket to remember what the database says.
    /// Call only when the feed has ruled out writes of other processes since the model was last
    /// cleared.
    /// `usable` may refuse a held entry (then it is a miss, read again).
    public func find(_ id: UUID, usable: ((SessionWithUser) -> Bool)? = nil) -> Lookup {
        let (entry, ticket) = state.withLock { state -> (Entry?, Ticket) in
            if let entry = Self.hit(id, in: &state, usable) { return (entry, Ticket(generation: state.generation)) }
            state.counts.misses += 1
            return (nil, Ticket(generation: state.generation))
        }
        guard let entry else { return .miss(ticket) }
        return .hit((entry.session, entry.user))
    }

    /// The held session `id` with its account, counted as a hit; `nil`, counted as nothing, when not
    /// held (for a caller that steps aside and lets an ordinary lookup count the miss).
    public func held(_ id: UUID, usable: ((SessionWithUser) -> Bool)? = nil) -> SessionWithUser? {
        state.withLock { state in Self.hit(id, in: &state, usable) }.map { ($0.session, $0.user) }
    }

    /// The held, current and usable entry of session `id`, marked referenced and counted as a hit.
    private static func hit(_ id: UUID, in state: inout State, _ usable: ((SessionWithUser) -> Bool)?) -> Entry? {
        guard let slot = state.index[id], let entry = state.slots[slot],
            entry.userEpoch == state.userEpochs[epochSlot(entry.session.userID)]
        else { return nil }
        if let usable, !usable((entry.session, entry.user)) { return nil }
        if !state.referenced[slot] { state.referenced[slot] = true }
        state.counts.hits += 1
        return entry
    }

    /// A lookup that did not use the model (the feed could not rule out another process's write):
    /// counted as a miss.
    public func bypass() -> Ticket {
        state.withLock { state in
            state.counts.misses += 1
            return Ticket(generation: state.generation)
        }
    }

    /// Takes what the database said for the lookup of `ticket`, unless a write began or ended
    /// since (then what was read may be older than that write) or the account is gone.
    public func remember(_ found: SessionWithUser?, _ ticket: Ticket) {
        guard let found, let user = found.user else { return }
        state.withLock { state in
            guard state.generation == ticket.generation, state.openWrites == 0 else { return }
            let entry = Entry(
                session: found.session, user: user, userEpoch: state.userEpochs[Self.epochSlot(found.session.userID)])
            if let slot = state.index[found.session.id] {
                state.slots[slot] = entry
                state.referenced[slot] = false
            } else {
                let slot = Self.freeSlot(&state, capacity: capacity)
                state.slots[slot] = entry
                state.referenced[slot] = false
                state.index[found.session.id] = slot
            }
            state.counts.entries = state.index.count
        }
    }

    /// A slot for a new entry: a new one until the model is full, then the first the CLOCK hand
    /// finds unreferenced (emptied here).
    private static func freeSlot(_ state: inout State, capacity: Int) -> Int {
        if state.slots.count < capacity {
            state.slots.append(nil)
            state.referenced.append(false)
            return state.slots.count - 1
        }
        while true {
            let slot = state.hand
            state.hand = (state.hand + 1) % state.slots.count
            guard let entry = state.slots[slot] else { return slot }
            if state.referenced[slot] {
                state.referenced[slot] = false
                continue
            }
            state.index[entry.session.id] = nil
            state.slots[slot] = nil
            state.counts.evictions += 1
            return slot
        }
    }

    /// Drops everything (another process wrote the database): later lookups miss, and reads that
    /// began before are not taken.
    public func clear() {
        state.withLock { state in
            state.generation &+= 1
            state.index.removeAll(keepingCapacity: true)
            state.slots.removeAll(keepingCapacity: true)
            state.referenced.removeAll(keepingCapacity: true)
            state.hand = 0
            state.counts.clears += 1
            state.counts.entries = 0
        }
    }

    /// The counters now.
    public var counts: Counts { state.withLock { $0.counts } }

    // MARK: Writes of other processes, one by one

    /// Another process changed (or deleted) the session `id`: dropped, and reads that began before
    /// are not taken (they may have seen it as it was).
    public func forgetSession(_ id: UUID) {
        state.withLock { state in
            state.generation &+= 1
            state.counts.notifications += 1
            guard let slot = state.index.removeValue(forKey: id) else { return }
            state.slots[slot] = nil
            state.counts.entries = state.index.count
        }
    }

    /// Another process changed (or deleted) the account `id`: its sessions are stale, and reads
    /// that began before are not taken.
    public func forgetUser(_ id: UUID) {
        state.withLock { state in
            state.generation &+= 1
            state.counts.notifications += 1
            state.userEpochs[Self.epochSlot(id)] &+= 1
        }
    }

    // MARK: Writes of this process

    /// One write transaction's hold on the model: from its first change until ``endWrite(_:)``,
    /// the model takes no entry. The transaction tells it each row before a statement changes it.
    public final class WriteScope: ChangeObserver {
        fileprivate let model: SessionReadModel
        /// 0 before its first change, 1 while it holds the model (counted in `openWrites`), 2 once
        /// ended (a transaction used after its closure only throws; it must not hold the model).
        /// Changed only under the model's lock.
        fileprivate let phase = Atomic<UInt8>(0)

        fileprivate init(model: SessionReadModel) { self.model = model }

        public func willChange(_ row: ChangedRow) {
            switch row {
            case .session(let id): sessionChanges(id)
            case .user(let id): userChanges(id)
            }
        }

        /// The session `id` is about to change (revoked, touched).
        public func sessionChanges(_ id: UUID) {
            model.change(self) { state in
                guard let slot = state.index.removeValue(forKey: id) else { return }
                state.slots[slot] = nil
                state.counts.invalidations += 1
                state.counts.entries = state.index.count
            }
        }

        /// The account `id`, or every session of it, is about to change (profile, password,
        /// verification, second factor, deletion, all sessions revoked).
        public func userChanges(_ id: UUID) {
            model.change(self) { state in
                state.userEpochs[SessionReadModel.epochSlot(id)] &+= 1
                state.counts.invalidations += 1
            }
        }
    }

    /// A scope for one write transaction; end it with ``endWrite(_:)`` once it committed or
    /// rolled back.
    public func beginWrite() -> WriteScope { WriteScope(model: self) }

    /// The transaction of `scope` committed or rolled back: the model may take entries again.
    public func endWrite(_ scope: WriteScope) {
        state.withLock { state in
            if scope.phase.load(ordering: .relaxed) == 1 {
                state.openWrites -= 1
                state.generation &+= 1
            }
            scope.phase.store(2, ordering: .relaxed)
        }
    }

    private func change(_ scope: WriteScope, _ drop: (inout State) -> Void) {
        state.withLock { state in
            if scope.phase.load(ordering: .relaxed) == 0 {
                scope.phase.store(1, ordering: .relaxed)
                state.openWrites += 1
            }
            state.generation &+= 1
            drop(&state)
        }
    }

    private static func epochSlot(_ userID: UUID) -> Int {
        let bytes = userID.uuid
        return (Int(bytes.14) << 8 | Int(bytes.15)) & (epochSlots - 1)
    }
}
