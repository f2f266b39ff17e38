import AccountStore
import Foundation
import Synchronization

/// Authentication's lookup (``AccountStore/sessionWithUser(id:)``) racing the writes that change
/// what it answers: with a cache in front of each store, no lookup that begins after a write
/// returned, on either server, answers what was there before.
extension StoreRaces {
    static func lookupsDuringChanges(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let user = Fixture.user("u\(UUID().uuidString.prefix(8))")
        let sessions = [Fixture.session(of: user), Fixture.session(of: user)]
        try await a.write { tx in
            try tx.insertUser(user)
            for session in sessions { try tx.insertSession(session) }
        }
        let stop = Stop()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            // However the round ends, the lookups end with it.
            defer { stop.now() }
            // Lookups on both stores all along, so reads that began before a write finish after it.
            for index in 0..<(width - 1) {
                group.addTask {
                    let store = index.isMultiple(of: 2) ? a : b
                    while !stop.isSet {
                        for session in sessions { _ = try await store.sessionWithUser(id: session.id) }
                        // A lookup the cache answers never suspends: without a pause these tasks
                        // would keep the writes' task from running.
                        try await Task.sleep(for: .microseconds(20))
                    }
                }
            }
            var failures: [String] = []
            /// The next lookup of every session on both stores, as `check` expects after `what`.
            func expect(_ what: String, _ check: (SessionWithUser?, SessionRecord) -> Bool) async throws {
                for (name, store) in [("a", a), ("b", b)] {
                    for session in sessions where !check(try await store.sessionWithUser(id: session.id), session) {
                        failures.append("\(what): \(name) answered what was there before")
                    }
                }
            }
            try await expect("as written") { found, session in found?.session == session && found?.user == user }
            var edited = user
            edited.mbti = "ENFP"
            let profile = edited
            try await a.write { try $0.updateUser(profile) }
            try await expect("a profile edit") { found, _ in found?.user?.mbti == "ENFP" }
            try await b.write { _ = try $0.revokeSession(id: sessions[0].id, at: Fixture.time(round)) }
            try await expect("a logout") { found, session in (found?.session.revokedAt != nil) == (session.id == sessions[0].id) }
            try await a.write { _ = try $0.setDisabled(userID: user.id, at: Fixture.time(round)) }
            try await expect("disabling") { found, _ in found?.user?.disabledAt == Fixture.time(round) }
            try await b.write { try $0.replaceRecoveryCodes(userID: user.id, hashes: [Fixture.hash(1), Fixture.hash(2)]) }
            try await expect("new recovery codes") { found, _ in found?.user?.recoveryCodesLeft == 2 }
            try await a.write { _ = try $0.revokeSessions(userID: user.id, except: nil, at: Fixture.time(round + 1)) }
            try await expect("every session ended") { found, _ in found?.session.revokedAt != nil }
            _ = try await b.write { try $0.deleteUser(id: user.id) }
            try await expect("the deletion") { found, _ in found == nil }
            stop.now()
            try await group.waitForAll()
            return failures.isEmpty ? nil : failures.prefix(3).joined(separator: "; ")
        }
    }
}

/// Tells racing tasks to finish.
private final class Stop: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func now() { flag.store(true, ordering: .relaxed) }
}
