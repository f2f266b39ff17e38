import AccountStore
import AccountStoreCache
import AccountStoreSQLite
import Foundation
import Synchronization
import TestSupport
import Testing

/// The cache in front of a SQLite store (``CachingAccountStore``, its ``SessionReadModel`` and
/// ``SQLiteChangeFeed``): exact under this process's writes, reads racing them, other connections
/// and processes writing the file, and bounded.
@Suite struct SQLiteReadModelTests {
    /// A migrated store over `path` behind a cache of `capacity` sessions.
    func store(_ path: String, capacity: Int = 100, inlineReaders: Int = 4) async throws -> CachingAccountStore {
        let sqlite = try SQLiteAccountStore(path: path, inlineReaders: inlineReaders)
        try await sqlite.migrate()
        return CachingAccountStore(sqlite, capacity: capacity, feed: sqlite.changeFeed(reportingTo:))
    }

    /// How many lookups of `store` asked SQLite itself whether someone committed.
    func fileChecks(_ store: CachingAccountStore) throws -> Int {
        try #require(store.feed as? SQLiteChangeFeed).fileCheckCount
    }

    /// An account with `count` sessions, written through `store`.
    func account(_ store: CachingAccountStore, sessions count: Int = 1) async throws -> (UserRecord, [SessionRecord]) {
        let user = Fixture.user("u\(UUID().uuidString.prefix(8).lowercased())")
        let sessions = (0..<count).map { _ in Fixture.session(of: user) }
        try await store.write { tx in
            try tx.insertUser(user)
            for session in sessions { try tx.insertSession(session) }
        }
        return (user, sessions)
    }

    @Test(arguments: StoreConformance.behaviours)
    func conformsWithTheModelOn(_ behaviour: Behaviour) async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            try await behaviour.check(store)
            await store.close()
        }
    }

    @Test(arguments: StoreRaces.all)
    func racesWithTheModelOn(_ race: Race) async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            try await StoreRaces.run(race, store, store)
            await store.close()
        }
    }

    @Test func answersFromMemoryOnceReadAndSeesEveryWriteOfTheStore() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            let (user, sessions) = try await account(store, sessions: 2)
            let id = sessions[0].id
            #expect(try await store.sessionWithUser(id: id)?.user == user)
            #expect(try store.sessionWithUserInline(id: id).answer()?.user == user)
            #expect(store.readModelCounts?.hits == 1 && store.readModelCounts?.misses == 1)

            var changed = user
            changed.mbti = "ESTJ"
            let renamed = changed
            try await store.write { try $0.updateUser(renamed) }
            #expect(try store.sessionWithUserInline(id: id).answer()?.user?.mbti == "ESTJ")
            try await store.write { try $0.touchSession(id: id, at: Fixture.time(5)) }
            #expect(try await store.sessionWithUser(id: id)?.session.lastUsedAt == Fixture.time(5))
            try await store.write { _ = try $0.revokeSession(id: id, at: Fixture.time(6)) }
            #expect(try store.sessionWithUserInline(id: id).answer()?.session.revokedAt == Fixture.time(6))
            // All of an account's sessions, through the account.
            _ = try await store.sessionWithUser(id: sessions[1].id)
            try await store.write { _ = try $0.revokeSessions(userID: user.id, except: nil, at: Fixture.time(7)) }
            #expect(try await store.sessionWithUser(id: sessions[1].id)?.session.revokedAt == Fixture.time(7))
            try await store.write { _ = try $0.deleteUser(id: user.id) }
            #expect(try await store.sessionWithUser(id: id) == nil)
            let gone = try store.sessionWithUserInline(id: sessions[1].id)
            #expect(try gone.answer() == nil, "answered, with no session")
            await store.close()
        }
    }

    @Test func secondFactorChangesReachTheAccountShown() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            let (user, sessions) = try await account(store)
            let id = sessions[0].id
            _ = try await store.sessionWithUser(id: id)
            try await store.write { tx in
                _ = try tx.upsertPendingTOTP(TOTPFactorRecord(userID: user.id, sealedSecret: [1, 2, 3], createdAt: Fixture.time()))
                _ = try tx.confirmTOTP(userID: user.id, at: Fixture.time(1), step: 1)
                try tx.replaceRecoveryCodes(userID: user.id, hashes: [Fixture.hash(1), Fixture.hash(2)])
            }
            var shown = try #require(try await store.sessionWithUser(id: id)?.user)
            #expect(shown.totpEnabled && shown.recoveryCodesLeft == 2)
            _ = try await store.write { try $0.useRecoveryCode(userID: user.id, hash: Fixture.hash(1)) }
            #expect(try store.sessionWithUserInline(id: id).answer()?.user?.recoveryCodesLeft == 1)
            try await store.write { _ = try $0.disableTOTP(userID: user.id) }
            shown = try #require(try await store.sessionWithUser(id: id)?.user)
            #expect(!shown.totpEnabled && shown.recoveryCodesLeft == 0)
            await store.close()
        }
    }

    /// The race a generation exists for: a read that began before a revocation, and finishes
    /// after it, must not put its (older) answer in the model.
    @Test func aReadThatStartedBeforeAWriteCannotPutBackWhatItRead() {
        let model = SessionReadModel(capacity: 10)
        let user = Fixture.user("race")
        let session = Fixture.session(of: user)
        guard case .miss(let ticket) = model.find(session.id) else { Issue.record("empty model hit"); return }
        // The write: it drops the session before its statement, and ends after its commit.
        let scope = model.beginWrite()
        scope.sessionChanges(session.id)
        // A read finishing while the write is open is not taken…
        model.remember((session, user), ticket)
        guard case .miss(let during) = model.find(session.id) else { Issue.record("taken during a write"); return }
        model.endWrite(scope)
        // …nor one that began before the write ended, even if it finishes after.
        model.remember((session, user), during)
        guard case .miss(let after) = model.find(session.id) else { Issue.record("taken from before the write ended"); return }
        var revoked = session
        revoked.revokedAt = Fixture.time(1)
        model.remember((revoked, user), after)
        guard case .hit(let found) = model.find(session.id) else { Issue.record("a read after the write is taken"); return }
        #expect(found.session.revokedAt == Fixture.time(1))
        // An account change drops every session of it, through its epoch.
        let account = model.beginWrite()
        account.userChanges(user.id)
        model.endWrite(account)
        guard case .miss = model.find(session.id) else { Issue.record("account change missed"); return }
    }

    /// Readers on threads of their own (inline, as HTTP threads) and tasks (the ordinary path)
    /// read sessions as fast as they can while they are revoked one by one: no read that starts
    /// after a revocation's write returned sees the session live.
    @Test func readsRacingRevocationsNeverSeeARevokedSessionLive() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path, capacity: 1000)
            let (_, sessions) = try await account(store, sessions: 40)
            let race = RaceLedger()
            let threads = (0..<2).map { _ in
                Thread {
                    while !race.stopped {
                        for session in sessions {
                            race.check(session.id) {
                                guard case .answered(let found) = try store.sessionWithUserInline(id: session.id) else { return nil }
                                return found
                            }
                            // As requests come: a tight loop on one lock starves the writer's task.
                            usleep(20)
                        }
                    }
                    race.finished()
                }
            }
            threads.forEach { $0.start() }
            // Whatever happens below, the readers stop.
            defer { race.stop() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                defer { race.stop() }
                for _ in 0..<2 {
                    group.addTask {
                        while !race.stopped {
                            for session in sessions {
                                let before = race.isRevoked(session.id)
                                race.record(try await store.sessionWithUser(id: session.id), revokedBefore: before)
                                try await Task.sleep(for: .microseconds(20))
                            }
                        }
                    }
                }
                for session in sessions {
                    try await Task.sleep(for: .milliseconds(5))
                    try await store.write { _ = try $0.revokeSession(id: session.id, at: Fixture.time(1)) }
                    race.revoked(session.id)
                    // The very next read, on either path, sees it.
                    #expect(try await store.sessionWithUser(id: session.id)?.session.revokedAt != nil)
                    #expect(try store.sessionWithUserInline(id: session.id).answer()?.session.revokedAt != nil)
                }
                race.stop()
                try await group.waitForAll()
            }
            while race.threadsFinished < threads.count { try await Task.sleep(for: .milliseconds(5)) }
            #expect(race.stale == 0)
            #expect(race.reads > 200, "the readers really raced")
            let counts = try #require(store.readModelCounts)
            #expect(counts.hits > 0, "the model answered some of them: \(counts)")
            await store.close()
        }
    }

    @Test func holdsAtMostItsCapacityAndStaysExactWhenFull() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path, capacity: 4)
            let (user, sessions) = try await account(store, sessions: 10)
            for _ in 0..<3 {
                for session in sessions { #expect(try await store.sessionWithUser(id: session.id)?.session == session) }
            }
            var counts = try #require(store.readModelCounts)
            #expect(counts.entries <= 4 && counts.capacity == 4)
            #expect(counts.evictions >= 6)
            try await store.write { _ = try $0.revokeSessions(userID: user.id, except: nil, at: Fixture.time(2)) }
            for session in sessions { #expect(try store.sessionWithUserInline(id: session.id).answer()?.session.revokedAt == Fixture.time(2)) }
            // The one session read over and over stays in (CLOCK gives it second chances).
            for _ in 0..<20 {
                _ = try await store.sessionWithUser(id: sessions[0].id)
                _ = try await store.sessionWithUser(id: sessions[Int.random(in: 1..<10)].id)
            }
            counts = try #require(store.readModelCounts)
            let hits = counts.hits
            _ = try await store.sessionWithUser(id: sessions[0].id)
            #expect(store.readModelCounts?.hits == hits + 1)
            await store.close()
        }
    }

    @Test func aCommitOfAnotherConnectionDropsTheModel() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            let (user, sessions) = try await account(store)
            let id = sessions[0].id
            _ = try await store.sessionWithUser(id: id)
            _ = try await store.sessionWithUser(id: id)
            #expect(store.readModelCounts?.hits == 1)
            // Another store on the file: another connection, as another process would be.
            let other = try SQLiteAccountStore(path: path)
            var changed = user
            changed.username = "renamed"
            let renamed = changed
            try await other.write { try $0.updateUser(renamed) }
            #expect(try store.sessionWithUserInline(id: id).answer()?.user?.username == "renamed")
            try await other.write { _ = try $0.revokeSession(id: id, at: Fixture.time(3)) }
            #expect(try await store.sessionWithUser(id: id)?.session.revokedAt == Fixture.time(3))
            await other.close()
            await store.close()
        }
    }

    @Test func answersAskSQLiteOnlyAfterSomeoneCommitted() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            let (user, sessions) = try await account(store)
            let id = sessions[0].id
            // The first answers confirm the file and map its WAL index.
            for _ in 0..<2 { _ = try store.sessionWithUserInline(id: id) }
            let settled = try fileChecks(store)
            for _ in 0..<20 { #expect(try store.sessionWithUserInline(id: id).answer()?.user == user) }
            #expect(try fileChecks(store) == settled, "nothing committed, so no statement was needed")

            let other = try SQLiteAccountStore(path: path)
            try await other.write { _ = try $0.revokeSession(id: id, at: Fixture.time(4)) }
            #expect(try store.sessionWithUserInline(id: id).answer()?.session.revokedAt == Fixture.time(4))
            #expect(try fileChecks(store) == settled + 1)
            await other.close()
            await store.close()
        }
    }

    @Test func aWriteOfTheSqlite3ProgramIsSeenByTheNextRead() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path)
            let (_, sessions) = try await account(store)
            let id = sessions[0].id
            _ = try await store.sessionWithUser(id: id)
            #expect(try store.sessionWithUserInline(id: id).answer()?.session.revokedAt == nil)
            let result = try await Program.run(
                "sqlite3", [path, "UPDATE sessions SET revoked_at = 1700000009123 WHERE id = '\(id.uuidString.lowercased())';"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try store.sessionWithUserInline(id: id).answer()?.session.revokedAt == Fixture.time(9))
            await store.close()
        }
    }

    @Test func withNoInlineConnectionItReadsEveryTime() async throws {
        try await TemporaryDatabase.with { path in
            let store = try await store(path, inlineReaders: 0)
            let (user, sessions) = try await account(store)
            for _ in 0..<3 { #expect(try await store.sessionWithUser(id: sessions[0].id)?.user == user) }
            #expect(store.readModelCounts?.hits == 0)
            await store.close()
        }
    }
}

/// What the racing readers saw: which revocations had returned, and reads that saw one live after.
private final class RaceLedger: Sendable {
    private let revokedIDs = Mutex(Set<UUID>())
    private let stopFlag = Atomic<Bool>(false)
    private let staleReads = Atomic<Int>(0)
    private let allReads = Atomic<Int>(0)
    private let doneThreads = Atomic<Int>(0)

    var stopped: Bool { stopFlag.load(ordering: .acquiring) }
    var stale: Int { staleReads.load(ordering: .acquiring) }
    var reads: Int { allReads.load(ordering: .acquiring) }
    var threadsFinished: Int { doneThreads.load(ordering: .acquiring) }

    func stop() { stopFlag.store(true, ordering: .releasing) }
    func finished() { doneThreads.add(1, ordering: .releasing) }
    func revoked(_ id: UUID) { _ = revokedIDs.withLock { $0.insert(id) } }
    func isRevoked(_ id: UUID) -> Bool { revokedIDs.withLock { $0.contains(id) } }

    /// A read that began after `revokedBefore` was known must not see the session live.
    func record(_ found: SessionWithUser?, revokedBefore: Bool) {
        guard let found else { return }
        allReads.add(1, ordering: .relaxed)
        if revokedBefore && found.session.revokedAt == nil { staleReads.add(1, ordering: .relaxed) }
    }

    func check(_ id: UUID, _ read: () throws -> SessionWithUser?) {
        let before = isRevoked(id)
        record((try? read()) ?? nil, revokedBefore: before)
    }
}
