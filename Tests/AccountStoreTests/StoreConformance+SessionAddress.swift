import AccountStore
import Foundation
import Testing

extension StoreConformance {
    /// A session keeps the address of the client that last used it: inserted with it, read by
    /// every read of the session (the store's own lookup, through its read model, included),
    /// moved by the rotation of a refresh, and forgotten when the session ends: by a revocation in
    /// its own statement, by the sweep once it expired or went idle, with the account.
    static func sessionClientAddress(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina, clientAddress: "192.0.2.10")
        let unknown = Fixture.session(of: mina, createdAt: Fixture.time(1))
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: Fixture.hash(1)))
            try tx.insertSession(unknown)
        }
        #expect(try await store.read { try $0.session(id: session.id) }?.clientAddress == "192.0.2.10")
        #expect(try await store.read { try $0.sessions(userID: mina.id) }.map(\.clientAddress) == [nil, "192.0.2.10"])
        #expect(try await store.read { try $0.refreshableSession(id: session.id) }?.session.clientAddress == "192.0.2.10")
        #expect(try await store.read { try $0.sessionWithUser(id: session.id) }?.session.clientAddress == "192.0.2.10")
        // Held by the store's lookup (a read model where it has one), then moved by a refresh.
        #expect(try await store.sessionWithUser(id: session.id)?.session.clientAddress == "192.0.2.10")
        #expect(try await store.sessionWithUser(id: session.id)?.session.clientAddress == "192.0.2.10")
        let next = SessionRefresh(generation: 1, tokenHash: Fixture.hash(2), rotatedBy: [1])
        #expect(try await store.write {
            try $0.rotateRefresh(sessionID: session.id, from: 0, to: next, at: Fixture.time(60), clientAddress: "2001:db8::7")
        })
        #expect(try await store.sessionWithUser(id: session.id)?.session.clientAddress == "2001:db8::7")
        let rotated = try #require(try await store.read { try $0.session(id: session.id) })
        #expect(rotated.clientAddress == "2001:db8::7" && rotated.lastUsedAt == Fixture.time(60))
        // A rotation that loses changes nothing, the address included.
        #expect(try await store.write {
            try $0.rotateRefresh(sessionID: session.id, from: 0, to: next, at: Fixture.time(61), clientAddress: "198.51.100.1")
        } == false)
        #expect(try await store.read { try $0.session(id: session.id) }?.clientAddress == "2001:db8::7")

        // Revocations forget it; the account's other sessions keep theirs until they end too.
        let other = Fixture.session(of: mina, createdAt: Fixture.time(2), clientAddress: "192.0.2.11")
        let kept = Fixture.session(of: mina, createdAt: Fixture.time(3), clientAddress: "192.0.2.12")
        try await store.write { tx in
            try tx.insertSession(other)
            try tx.insertSession(kept)
        }
        #expect(try await store.write { try $0.revokeSession(id: session.id, at: Fixture.time(70)) })
        #expect(try await store.sessionWithUser(id: session.id)?.session.clientAddress == .some(nil))
        #expect(try await store.write { try $0.revokeSessions(userID: mina.id, except: kept.id, at: Fixture.time(71)) } == 2)
        let after = try await store.read { try $0.sessions(userID: mina.id) }
        #expect(after.filter { $0.revokedAt != nil }.allSatisfy { $0.clientAddress == nil })
        #expect(after.first { $0.id == kept.id }?.clientAddress == "192.0.2.12")
        #expect(try await store.write { try $0.revokeSessions(userID: mina.id, except: nil, at: Fixture.time(72)) } == 1)
        #expect(try await store.read { try $0.session(id: kept.id) }?.clientAddress == nil)
    }

    /// The sweep's two operations: sessions that ended (revoked, past their absolute end, idle)
    /// and still keep an address are found, live ones never; forgetting checks the end again.
    static func endedSessionAddresses(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        func session(_ seconds: Int, lastUsed: Int? = nil, address: String? = "192.0.2.1", revoked: Bool = false) -> SessionRecord {
            var record = Fixture.session(of: mina, createdAt: Fixture.time(seconds))
            record.lastUsedAt = Fixture.time(lastUsed ?? seconds)
            record.expiresAt = Fixture.time(seconds + 1000)
            record.clientAddress = address
            record.revokedAt = revoked ? Fixture.time(seconds) : nil
            return record
        }
        // At time 1000 with an idle end of 100 seconds: expired (ends at 1000), idle (last used
        // at 900), revoked (written as an operator's SQL might leave it), live, and one ended
        // without an address.
        let expired = session(0, lastUsed: 990)
        let idle = session(100, lastUsed: 900)
        let revoked = session(500, revoked: true)
        let live = session(600, lastUsed: 950)
        let endedUnknown = session(50, lastUsed: 60, address: nil)
        try await store.write { tx in
            try tx.insertUser(mina)
            for record in [expired, idle, revoked, live, endedUnknown] { try tx.insertSession(record) }
        }
        let (now, idleSince) = (Fixture.time(1000), Fixture.time(900))
        let found = try await store.read { try $0.endedSessionsWithAddress(now: now, idleSince: idleSince, limit: 10) }
        #expect(Set(found) == [expired.id, idle.id, revoked.id])
        #expect(try await store.read { try $0.endedSessionsWithAddress(now: now, idleSince: idleSince, limit: 2) }.count == 2)
        // A second earlier nothing has ended but the revoked one.
        #expect(try await store.read { try $0.endedSessionsWithAddress(now: Fixture.time(999), idleSince: Fixture.time(899), limit: 10) } == [revoked.id])
        // Held by the store's lookup, then forgotten: the next lookup says so. A live session
        // named by mistake keeps its address.
        #expect(try await store.sessionWithUser(id: idle.id)?.session.clientAddress == "192.0.2.1")
        #expect(try await store.write { try $0.forgetClientAddresses(sessionIDs: found + [live.id], now: now, idleSince: idleSince) } == 3)
        #expect(try await store.sessionWithUser(id: idle.id)?.session.clientAddress == .some(nil))
        let sessions = try await store.read { try $0.sessions(userID: mina.id) }
        #expect(sessions.filter { $0.clientAddress != nil }.map(\.id) == [live.id])
        #expect(try await store.read { try $0.endedSessionsWithAddress(now: now, idleSince: idleSince, limit: 10) }.isEmpty)
        #expect(try await store.write { try $0.forgetClientAddresses(sessionIDs: found, now: now, idleSince: idleSince) } == 0)
        // The account's deletion takes the last address with its sessions.
        #expect(try await store.write { try $0.deleteUser(id: mina.id) })
        #expect(try await store.read { try $0.session(id: live.id) } == nil)
    }
}
