import AccountStore
import Foundation

/// Races about one account row: changes made by reading the account with
/// ``AccountStore/StoreTransaction/lockUser(id:)`` and writing it back, as the profile, password
/// and login handlers do.
extension StoreRaces {
    /// The handlers' read-change-write of an account, with a pause between the read and the write
    /// so that a change committed by another transaction in between would be written over.
    static func change(_ store: any AccountStore, _ id: UUID, _ edit: @escaping @Sendable (inout UserRecord) -> Void) async throws -> String {
        try await store.write { tx in
            guard var user = try tx.lockUser(id: id) else { return "gone" }
            Thread.sleep(forTimeInterval: 0.002)
            edit(&user)
            try tx.updateUser(user)
            return "changed"
        }
    }

    static func passwordChangeDuringEdits(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let user = Fixture.user("u\(UUID().uuidString.prefix(8))")
        try await a.write { try $0.insertUser(user) }
        // One password change and seven profile edits, each of a field of its own.
        let outcomes = await atOnce(a, b) { index, store in
            try await change(store, user.id) { account in
                if index == 0 { account.passwordHash = "changed-\(round)" } else { account.mbti = "ENFP" }
            }
        }
        let stored = try await b.read { try $0.user(id: user.id) }
        let fine = tally(outcomes) == ["changed": width] && stored?.passwordHash == "changed-\(round)" && stored?.mbti == "ENFP"
        return fine ? nil : "\(tally(outcomes)), password kept: \(stored?.passwordHash == "changed-\(round)"), mbti: \(stored?.mbti ?? "-")"
    }

    static func sessionsWhileDeleted(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let user = Fixture.user("u\(UUID().uuidString.prefix(8))")
        try await a.write { try $0.insertUser(user) }
        // Seven logins opening a session as the login handler does, and the account's deletion.
        let outcomes = await atOnce(a, b) { index, store in
            guard index > 0 else {
                return try await store.write { try $0.deleteUser(id: user.id) } ? "deleted" : "not deleted"
            }
            return try await store.write { tx in
                guard try tx.lockUser(id: user.id) != nil else { return "gone" }
                Thread.sleep(forTimeInterval: 0.002)
                try tx.insertSession(Fixture.session(of: user))
                return "opened"
            }
        }
        let counts = tally(outcomes)
        let left = try await b.read { try $0.sessions(userID: user.id).count }
        let fine = counts["deleted"] == 1 && outcomes.allSatisfy { ["deleted", "gone", "opened"].contains($0) } && left == 0
        return fine ? nil : "\(counts), sessions left: \(left)"
    }
}
