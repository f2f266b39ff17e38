import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func refreshTokenClients(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina)
        let fingerprint = Array(Fixture.hash(40).prefix(16))
        let carried = RefreshTokenRecord(hash: Fixture.hash(3), sessionID: session.id, issuedAt: Fixture.time(), usedAt: Fixture.time(1), usedBy: fingerprint)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session)
            for seed: UInt8 in [1, 2] {
                try tx.insertRefreshToken(RefreshTokenRecord(hash: Fixture.hash(seed), sessionID: session.id, issuedAt: Fixture.time()))
            }
            try tx.insertRefreshToken(carried)
        }
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(1))?.usedBy } == .some(nil))
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(3)) } == carried)

        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(1), at: Fixture.time(5), client: fingerprint) })
        // The first client stays: a later use, with or without a client, changes nothing.
        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(1), at: Fixture.time(6), client: Fixture.hash(41)) } == false)
        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(1), at: Fixture.time(7)) } == false)
        let used = try await store.read { try $0.refreshToken(hash: Fixture.hash(1)) }
        #expect(used?.usedAt == Fixture.time(5))
        #expect(used?.usedBy == fingerprint)

        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(2), at: Fixture.time(8), client: nil) })
        let anonymous = try await store.read { try $0.refreshToken(hash: Fixture.hash(2)) }
        #expect(anonymous?.usedAt == Fixture.time(8))
        #expect(anonymous?.usedBy == nil)
    }

    static func settingsReplaceAndDelete(_ store: any AccountStore) async throws {
        #expect(try await store.read { try $0.settingNames() } == [])
        try await store.write { tx in
            _ = try tx.insertSettingIfAbsent("b", value: [1])
            _ = try tx.insertSettingIfAbsent("a", value: [2])
        }
        #expect(try await store.read { try $0.settingNames() } == ["a", "b"])
        try await store.write { tx in
            try tx.replaceSetting("a", value: Fixture.hash(9))
            try tx.replaceSetting("c", value: [])
        }
        #expect(try await store.read { try $0.setting("a") } == Fixture.hash(9))
        #expect(try await store.read { try $0.setting("c") } == [])
        #expect(try await store.write { try $0.deleteSetting("b") })
        #expect(try await store.write { try $0.deleteSetting("b") } == false)
        #expect(try await store.read { try $0.settingNames() } == ["a", "c"])
        // A replacement inside a transaction that fails is rolled back with it.
        await #expect(throws: Planned.self) {
            try await store.write { tx in
                try tx.replaceSetting("a", value: [0])
                _ = try tx.deleteSetting("c")
                throw Planned()
            }
        }
        #expect(try await store.read { try $0.setting("a") } == Fixture.hash(9))
        #expect(try await store.read { try $0.settingNames() } == ["a", "c"])
    }

    static func signingKeySeeds(_ store: any AccountStore) async throws {
        let key = SigningKeyRecord(kid: "k1", seed: Fixture.hash(1), publicKey: Fixture.hash(2), createdAt: Fixture.time())
        try await store.write { try $0.insertSigningKey(key) }
        let sealed = [UInt8](repeating: 0xA5, count: 72)
        #expect(try await store.write { try $0.replaceSigningKeySeed(kid: "k1", seed: sealed) })
        #expect(try await store.write { try $0.replaceSigningKeySeed(kid: "k2", seed: sealed) } == false)
        var expected = key
        expected.seed = sealed
        #expect(try await store.read { try $0.signingKeys() } == [expected])
    }
}
