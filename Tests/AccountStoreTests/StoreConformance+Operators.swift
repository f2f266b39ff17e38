import AccountStore
import Foundation
import Testing

extension StoreConformance {
    /// The admin role and disabling, each by its own statement on an account that exists: listed
    /// and read with the session at once, cleared again, and refused for an account that is gone.
    static func operatorFlags(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let jun = Fixture.user("Jun")
        let session = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(jun)
            try tx.insertSession(session)
        }
        #expect(try await store.sessionWithUser(id: session.id)?.user?.isAdmin == false)

        #expect(try await store.write { try $0.setAdmin(userID: mina.id, true) })
        #expect(try await store.read { try $0.admins() }.map(\.id) == [mina.id])
        #expect(try await store.sessionWithUser(id: session.id)?.user?.isAdmin == true)
        #expect(try await store.read { try $0.user(id: jun.id) }?.isAdmin == false, "only the account named")

        #expect(try await store.write { try $0.setDisabled(userID: mina.id, at: Fixture.time(5)) })
        #expect(try await store.sessionWithUser(id: session.id)?.user?.disabledAt == Fixture.time(5))
        #expect(try await store.write { try $0.setDisabled(userID: mina.id, at: nil) })
        #expect(try await store.sessionWithUser(id: session.id)?.user?.disabledAt == nil)

        #expect(try await store.write { try $0.setAdmin(userID: mina.id, false) })
        #expect(try await store.read { try $0.admins() }.isEmpty)
        #expect(try await store.sessionWithUser(id: session.id)?.user?.isAdmin == false)

        let gone = UUID()
        #expect(try await store.write { try $0.setAdmin(userID: gone, true) } == false)
        #expect(try await store.write { try $0.setDisabled(userID: gone, at: Fixture.time(6)) } == false)
    }
}
