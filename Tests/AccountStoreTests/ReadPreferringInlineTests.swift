import AccountStore
import AccountStoreSQLite
import Foundation
import Testing

/// A read that may run on the caller's thread answers as the ordinary read does, whether an
/// inline connection was free or it fell back to the store's readers.
@Suite struct ReadPreferringInlineTests {
    @Test(arguments: [0, 1, 4])
    func answersAsTheOrdinaryReadWithOrWithoutInlineConnections(inlineReaders: Int) async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path, inlineReaders: inlineReaders)
            _ = try await store.migrate()
            let user = Fixture.user("mina")
            try await store.write { try $0.insertUser(user) }

            let found = try await store.readPreferringInline { try $0.user(usernameKey: "mina") }
            #expect(found == user)
            #expect(found == (try await store.read { try $0.user(usernameKey: "mina") }))
            #expect(try await store.readPreferringInline { try $0.user(usernameKey: "nobody") } == nil)
            // Inline or not, the read is read-only and a throwing body's error reaches the caller.
            await #expect(throws: (any Error).self) {
                try await store.readPreferringInline { try $0.insertUser(Fixture.user("yuna")) }
            }
            #expect(try await store.read { try $0.user(usernameKey: "yuna") } == nil)
            await store.close()
        }
    }
}
