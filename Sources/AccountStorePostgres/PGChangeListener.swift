import AccountStore
import AccountStoreCache
import Foundation
import Synchronization

/// Keeps the ``SessionReadModel`` of a cache in front of a PostgreSQL store fresh against every
/// other writer of the database: other servers, `account-server` commands, an operator's SQL
/// (``PostgresChangeFeed``'s part that talks to the database).
///
/// Triggers on `sessions` and `users` (`PGMigrations.readModelNotifications`) send a
/// notification on ``channel`` for every row updated or deleted (`s<session id>`, `u<account id>`;
/// `*` when a table is truncated), in the writer's transaction, so it is delivered only if and
/// once it commits. This listener holds a connection of its own on a thread of its own and applies
/// each notification to the model.
///
/// **Heartbeats.** It notifies a channel only it listens on, from a statement that sends nothing
/// unless the five triggers exist and fire always. PostgreSQL delivers notifications in the order
/// their transactions committed, so when a heartbeat comes back, every change committed before it
/// was sent has been applied. That gives two things:
/// - **Trust** (``isCaughtUp``): a heartbeat every `heartbeat`; the model is trusted from a
///   heartbeat's return until the connection breaks or a heartbeat is `overdue` (a silent network,
///   a stalled server, a dropped trigger). The model is emptied when trust is lost and on every
///   (re)connection, since notifications may have been missed; meanwhile every lookup reads.
/// - **Exactness** (``catchUp()``): a lookup that waits for a heartbeat sent after it began has seen
///   every change committed before it began, however late its notification would have come.
///   Heartbeats are sent back to back while lookups wait, so one round trip serves them all.
final class PGChangeListener: Sendable {
    /// The channel the triggers notify.
    static let channel = "account_read_model"
    /// The triggers the heartbeat requires, all enabled `ALWAYS` (so they fire in replica mode too).
    static let triggers = [
        "sessions_read_model", "sessions_read_model_delete", "users_read_model", "sessions_read_model_truncate",
        "users_read_model_truncate",
    ]
    /// How `pg_stat_activity` names the listener's connection.
    static let applicationName = "account-server-listener"

    /// Lookups waiting for a heartbeat, and whether the model is trusted (changed only under the lock).
    private struct Waits {
        var trusted = false
        /// The sequence number of the last heartbeat sent.
        var lastSent: UInt64 = 0
        var waiters: [(heartbeat: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let url: String
    private let model: SessionReadModel
    private let heartbeat: Duration
    private let overdue: Duration
    /// The channel of this listener's heartbeats, unique to it.
    private let syncChannel = "account_sync_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    private let waits = Mutex(Waits())
    private let caughtUp = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let connects = Atomic<Int>(0)
    private let stopped = DispatchSemaphore(value: 0)
    /// A pipe whose read end the thread polls beside its connection, so a waiting lookup wakes it.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Starts listening for changes of the database at `url` on a thread of its own.
    init(url: String, model: SessionReadModel, heartbeat: Duration = .milliseconds(200), overdue: Duration = .seconds(1)) {
        self.url = url
        self.model = model
        self.heartbeat = heartbeat
        self.overdue = overdue
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        let thread = Thread { [self] in
            run()
            stopped.signal()
        }
        thread.name = "pg-listener"
        thread.start()
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Whether the model may answer now: connected, and a heartbeat came back within `overdue`.
    var isCaughtUp: Bool { caughtUp.load(ordering: .acquiring) }

    /// Times the listener connected.
    var connectCount: Int { connects.load(ordering: .relaxed) }

    /// Suspends until a heartbeat sent after this call came back (`true`: every change committed
    /// before the call has been applied to the model), or trust is lost first (`false`).
    func catchUp() async -> Bool {
        guard isCaughtUp else { return false }
        return await withCheckedContinuation { continuation in
            let wake = waits.withLock { waits -> Bool? in
                guard waits.trusted else { return nil }
                waits.waiters.append((waits.lastSent + 1, continuation))
                return waits.waiters.count == 1
            }
            switch wake {
            case nil: continuation.resume(returning: false)
            case true?: wakeThread()
            case false?: break
            }
        }
    }

    /// Stops the thread and closes its connection (waits for it, at most a few seconds).
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeThread()
        _ = stopped.wait(timeout: .now() + 5)
        distrust()
    }

    /// The thread: connect, apply notifications, send heartbeats; reconnect when the connection breaks.
    private func run() {
        let clock = ContinuousClock()
        var backoff = Duration.milliseconds(20)
        var connection: PGConnection?
        var inFlight: (sequence: UInt64, sentAt: ContinuousClock.Instant)?
        var nextBeat = clock.now
        while !stopping.load(ordering: .relaxed) {
            guard let live = connection, live.isConnected else {
                distrust()
                connection = nil
                inFlight = nil
                guard let fresh = connect() else {
                    Thread.sleep(forTimeInterval: backoff / .seconds(1))
                    backoff = min(backoff * 2, .seconds(1))
                    continue
                }
                connection = fresh
                backoff = .milliseconds(20)
                connects.add(1, ordering: .relaxed)
                // Changes made while no connection listened were never sent to this one.
                model.clear()
                nextBeat = clock.now
                continue
            }
            let now = clock.now
            if inFlight == nil, now >= nextBeat || hasWaiters, !live.isBusy {
                let sequence = waits.withLock { waits in
                    waits.lastSent += 1
                    return waits.lastSent
                }
                guard live.send(heartbeatStatement(sequence)) else {
                    connection = nil
                    continue
                }
                inFlight = (sequence, now)
                nextBeat = now + heartbeat
            }
            if let beat = inFlight, now - beat.sentAt > overdue {
                distrust()
                // Long silent: the connection is likely dead without having said so; make a new one.
                if now - beat.sentAt > overdue * 5 {
                    connection = nil
                    continue
                }
            }
            let due = inFlight.map { $0.sentAt + overdue } ?? nextBeat
            wait(for: live.socket, atMost: min(max(due - now, .milliseconds(1)), .milliseconds(50)))
            guard live.consumeInput(), live.takeResults() else {
                connection = nil
                continue
            }
            while let notification = live.nextNotification() {
                if notification.channel == syncChannel {
                    if let beat = inFlight, notification.payload == String(beat.sequence) {
                        inFlight = nil
                        returned(beat.sequence)
                    }
                } else {
                    apply(notification.payload)
                }
            }
            // Reading notifications parses what arrived with them, the heartbeat's own result
            // included: take it now, so the next heartbeat need not wait for more input.
            guard live.takeResults() else {
                connection = nil
                continue
            }
        }
        connection = nil
    }

    private var hasWaiters: Bool { waits.withLock { !$0.waiters.isEmpty } }

    /// A heartbeat came back: trusted, and the lookups that waited for it go on.
    private func returned(_ sequence: UInt64) {
        let done = waits.withLock { waits in
            waits.trusted = true
            caughtUp.store(true, ordering: .releasing)
            let done = waits.waiters.filter { $0.heartbeat <= sequence }
            waits.waiters.removeAll { $0.heartbeat <= sequence }
            return done
        }
        for waiter in done { waiter.continuation.resume(returning: true) }
    }

    /// No longer caught up: the model is emptied, so nothing read before can be answered after
    /// trust comes back, and waiting lookups read the database.
    private func distrust() {
        let (wasTrusted, waiting) = waits.withLock { waits in
            let was = waits.trusted
            waits.trusted = false
            caughtUp.store(false, ordering: .releasing)
            defer { waits.waiters.removeAll() }
            return (was, waits.waiters)
        }
        if wasTrusted { model.clear() }
        for waiter in waiting { waiter.continuation.resume(returning: false) }
    }

    /// A new listening connection, or `nil` when the database cannot be reached now.
    private func connect() -> PGConnection? {
        guard let connection = try? PGConnection(url: url, applicationName: Self.applicationName) else { return nil }
        do {
            // Heartbeats are this listener's own business: their commits need not wait for the disk.
            try connection.executeScript("SET synchronous_commit = off; LISTEN \(Self.channel); LISTEN \(syncChannel)")
            return connection
        } catch {
            return nil
        }
    }

    /// Notifies this listener's own channel, only while every trigger is in place and fires always.
    private func heartbeatStatement(_ sequence: UInt64) -> String {
        let names = Self.triggers.map { "'\($0)'" }.joined(separator: ", ")
        return """
            SELECT pg_notify('\(syncChannel)', '\(sequence)') WHERE (SELECT count(*) FROM pg_trigger \
            WHERE tgname IN (\(names)) AND tgenabled = 'A' \
            AND tgrelid IN (to_regclass('sessions'), to_regclass('users'))) = \(Self.triggers.count)
            """
    }

    /// One change another writer committed.
    private func apply(_ payload: String) {
        let kind = payload.utf8.first
        if kind == UInt8(ascii: "s"), let id = UUID(uuidString: String(payload.dropFirst())) {
            model.forgetSession(id)
        } else if kind == UInt8(ascii: "u"), let id = UUID(uuidString: String(payload.dropFirst())) {
            model.forgetUser(id)
        } else {
            model.clear()
        }
    }

    private func wakeThread() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Waits until `socket` has input, a lookup wakes the thread, or `timeout` passed.
    private func wait(for socket: Int32, atMost timeout: Duration) {
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        _ = poll(&descriptors, 2, max(1, Int32(timeout / .milliseconds(1))))
        if descriptors[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &drain, drain.count) > 0 {}
        }
    }
}
