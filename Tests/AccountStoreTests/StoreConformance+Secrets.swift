import AccountStore
import Foundation
import Testing

extension StoreConformance {
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
