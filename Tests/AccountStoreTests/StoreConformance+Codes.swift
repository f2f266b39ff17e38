import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func codes(_ store: any AccountStore) async throws {
        let first = Fixture.code("mina@example.com", seed: 1)
        let otherPurpose = Fixture.code("mina@example.com", purpose: "verify", seed: 2)
        try await store.write { tx in
            try tx.upsertCode(first)
            try tx.upsertCode(otherPurpose)
        }
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "signup") } == first)

        let counts = try await store.write { tx in
            try (1...3).map { _ in try tx.incrementCodeAttempts(emailKey: "mina@example.com", purpose: "signup") }
        }
        #expect(counts == [1, 2, 3])
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "signup")?.attempts } == 3)

        var replacement = Fixture.code("mina@example.com", seed: 3)
        replacement.createdAt = Fixture.time(100)
        replacement.expiresAt = Fixture.time(700)
        let newer = replacement
        try await store.write { try $0.upsertCode(newer) }
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "signup") } == newer)
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "verify") } == otherPurpose)

        #expect(try await store.write { try $0.deleteCode(emailKey: "mina@example.com", purpose: "signup") })
        #expect(try await store.write { try $0.deleteCode(emailKey: "mina@example.com", purpose: "signup") } == false)
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "signup") } == nil)
        #expect(try await store.read { try $0.code(emailKey: "mina@example.com", purpose: "verify") } == otherPurpose)
    }

    static func verificationTokens(_ store: any AccountStore) async throws {
        let token = VerificationTokenRecord(hash: Fixture.hash(4), emailKey: "mina@example.com", expiresAt: Fixture.time(900))
        try await store.write { try $0.insertVerificationToken(token) }
        #expect(try await store.write { try $0.takeVerificationToken(hash: Fixture.hash(4)) } == token)
        #expect(try await store.write { try $0.takeVerificationToken(hash: Fixture.hash(4)) } == nil)
        #expect(try await store.write { try $0.takeVerificationToken(hash: Fixture.hash(5)) } == nil)
    }

    static func signingKeys(_ store: any AccountStore) async throws {
        func key(_ kid: String, at seconds: Int, retired: Int? = nil) -> SigningKeyRecord {
            SigningKeyRecord(
                kid: kid, seed: Fixture.hash(UInt8(seconds)), publicKey: Fixture.hash(UInt8(seconds + 1)),
                createdAt: Fixture.time(seconds), retiredAt: retired.map { Fixture.time($0) })
        }
        let oldest = key("k1", at: 0, retired: 5)
        let middle = key("k2", at: 10)
        let newest = key("k3", at: 20)
        try await store.write { tx in
            try tx.insertSigningKey(newest)
            try tx.insertSigningKey(oldest)
            try tx.insertSigningKey(middle)
        }
        #expect(try await store.read { try $0.signingKeys() } == [oldest, middle, newest])

        try await store.write { try $0.retireSigningKeys(except: "k3", at: Fixture.time(30)) }
        let retired = try await store.read { try $0.signingKeys().map(\.retiredAt) }
        #expect(retired == [Fixture.time(5), Fixture.time(30), nil])
    }

    static func settings(_ store: any AccountStore) async throws {
        #expect(try await store.read { try $0.setting("code-hmac-key") } == nil)
        let first = try await store.write { try $0.insertSettingIfAbsent("code-hmac-key", value: Fixture.hash(1)) }
        let second = try await store.write { try $0.insertSettingIfAbsent("code-hmac-key", value: Fixture.hash(2)) }
        #expect(first == Fixture.hash(1))
        #expect(second == Fixture.hash(1))
        #expect(try await store.read { try $0.setting("code-hmac-key") } == Fixture.hash(1))
        #expect(try await store.write { try $0.insertSettingIfAbsent("empty", value: []) } == [])
        #expect(try await store.read { try $0.setting("empty") } == [])
    }
}
