import AccountStore
import Foundation
import Synchronization
import Testing

/// A store in front of another that checks every write named, before its statements ran, each
/// account and session row it changed (``AnnouncesChanges``): what a cache in front of the store
/// relies on to stay exact.
///
/// Writes run one at a time. Before and after each one every account and every session is read,
/// and a row that changed or went must have been announced (a session by itself or by its
/// account); inserts need nothing. Run under the conformance suite, which runs every operation of
/// the store, a write that forgets to name a row it changes fails the behaviour that runs it.
final class ChangeAudit: AccountStore {
    /// Every account and session, as a cache could hold them.
    struct Rows: Equatable, Sendable {
        var users: [UUID: UserRecord] = [:]
        var sessions: [UUID: SessionRecord] = [:]
    }

    private let base: any AccountStore
    private let turns = Turns()

    init(_ base: any AccountStore) { self.base = base }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        await turns.begin()
        do {
            let before = try await rows()
            let announced = Announced()
            let result = try await base.write { transaction in
                transaction.announceChanges(to: announced)
                return try body(transaction)
            }
            for missed in Self.unannounced(before: before, after: try await rows(), announced: announced.rows) {
                Issue.record("a write did not name what it changed: \(missed)")
            }
            await turns.end()
            return result
        } catch {
            await turns.end()
            throw error
        }
    }

    /// The changes from `before` to `after` that `announced` does not name, described.
    static func unannounced(before: Rows, after: Rows, announced: Set<ChangedRow>) -> [String] {
        var missed: [String] = []
        for (id, user) in before.users where after.users[id] != user && !announced.contains(.user(id)) {
            missed.append("account \(user.username) \(after.users[id] == nil ? "deleted" : "changed")")
        }
        for (id, session) in before.sessions
        where after.sessions[id] != session && !announced.contains(.session(id)) && !announced.contains(.user(session.userID)) {
            missed.append("session \(id) \(after.sessions[id] == nil ? "deleted" : "changed")")
        }
        return missed.sorted()
    }

    /// Every account (through the operators' search, page by page) and every session of each.
    private func rows() async throws -> Rows {
        try await base.read { tx in
            var rows = Rows()
            var position: AdminSearchPosition?
            repeat {
                let page = try tx.adminUsers(AdminUserQuery(), after: position, limit: 100)
                for row in page.rows {
                    rows.users[row.user.id] = row.user
                    for session in try tx.sessions(userID: row.user.id) { rows.sessions[session.id] = session }
                }
                position = page.next
            } while position != nil
            return rows
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func ping() async throws { try await base.ping() }
    @discardableResult func migrate() async throws -> Int { try await base.migrate() }
    func rowCounts() async throws -> [String: Int] { try await base.rowCounts() }
    func close() async { await base.close() }
    func whenMailQueued(_ hook: @escaping @Sendable () -> Void) { base.whenMailQueued(hook) }
    func sessionWithUser(id: UUID) async throws -> SessionWithUser? { try await base.sessionWithUser(id: id) }
}

/// The rows one write announced.
private final class Announced: ChangeObserver {
    private let announced = Mutex(Set<ChangedRow>())
    var rows: Set<ChangedRow> { announced.withLock { $0 } }
    func willChange(_ row: ChangedRow) { _ = announced.withLock { $0.insert(row) } }
}

/// One write at a time, in the order they asked.
private actor Turns {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func begin() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func end() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
