import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func migrateIsIdempotent(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        try await store.write { try $0.insertUser(mina) }
        let first = try await store.migrate()
        let second = try await store.migrate()
        #expect(first >= 1)
        #expect(second == first)
        #expect(try await store.read { try $0.user(id: mina.id) } == mina)
        try await store.ping()
    }

    static func concurrentReadsAndWrites(_ store: any AccountStore) async throws {
        let users = (0..<100).map { Fixture.user("user\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, user) in users.enumerated() {
                group.addTask { try await store.write { try $0.insertUser(user) } }
                group.addTask {
                    // Reads overlap the writes: each sees either nothing or a whole user.
                    let other = users[(index * 7) % users.count]
                    let found = try await store.read { try $0.user(id: other.id) }
                    #expect(found == nil || found == other)
                }
            }
            try await group.waitForAll()
        }
        let (count, found) = try await store.read { tx in
            (try tx.userCount(), try users.allSatisfy { try tx.user(usernameKey: $0.usernameKey) == $0 })
        }
        #expect(count == 100)
        #expect(found)
    }
}
