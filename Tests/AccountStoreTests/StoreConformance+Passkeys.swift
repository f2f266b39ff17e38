import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func passkey(_ user: UserRecord, seed: UInt8, name: String = "iPhone", createdAt: Date = Fixture.time()) -> PasskeyRecord {
        PasskeyRecord(
            id: UUID(), credentialID: Fixture.hash(seed), userID: user.id, name: name, publicKey: [0xa5, seed], algorithm: -7,
            signCount: 0, backupEligible: true, backedUp: false, aaguid: [UInt8](repeating: seed, count: 16),
            transports: ["internal", "hybrid"], createdAt: createdAt)
    }

    /// Passkeys: a credential id once across all accounts, listed oldest first, uses recorded,
    /// deleted only by their owner, and gone with the account.
    static func passkeys(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let other = Fixture.user("Other")
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(other)
        }
        let phone = passkey(mina, seed: 1, createdAt: Fixture.time(10))
        let laptop = passkey(mina, seed: 2, name: "노트북", createdAt: Fixture.time(20))
        #expect(try await store.write { try $0.insertPasskey(laptop) })
        #expect(try await store.write { try $0.insertPasskey(phone) })
        // The same credential id again, on the same account or another: nothing stored.
        let othersCopy = passkey(other, seed: 1)
        #expect(try await store.write { try $0.insertPasskey(othersCopy) } == false)
        let ownCopy = passkey(mina, seed: 1)
        #expect(try await store.write { try $0.insertPasskey(ownCopy) } == false)

        #expect(try await store.read { try $0.passkeys(userID: mina.id) } == [phone, laptop])
        #expect(try await store.read { try $0.passkeys(userID: other.id) } == [])
        #expect(try await store.read { try $0.passkeyCount(userID: mina.id) } == 2)
        #expect(try await store.read { try $0.passkey(credentialID: Fixture.hash(1)) } == phone)
        #expect(try await store.write { try $0.passkey(credentialID: Fixture.hash(2)) } == laptop)
        #expect(try await store.read { try $0.passkey(credentialID: Fixture.hash(3)) } == nil)

        try await store.write { try $0.recordPasskeyUse(id: phone.id, signCount: 4_000_000_000, backedUp: true, at: Fixture.time(30)) }
        let used = try await store.read { try $0.passkey(credentialID: Fixture.hash(1)) }
        #expect(used?.signCount == 4_000_000_000 && used?.backedUp == true && used?.lastUsedAt == Fixture.time(30))
        #expect(used?.transports == ["internal", "hybrid"] && used?.name == "iPhone")

        #expect(try await store.write { try $0.deletePasskey(id: phone.id, userID: other.id) } == false, "only the owner deletes")
        #expect(try await store.write { try $0.deletePasskey(id: phone.id, userID: mina.id) })
        #expect(try await store.write { try $0.deletePasskey(id: phone.id, userID: mina.id) } == false)
        #expect(try await store.read { try $0.passkeys(userID: mina.id) } == [laptop])
        // A deleted credential id may be registered again.
        #expect(try await store.write { try $0.insertPasskey(passkey(other, seed: 1)) })

        _ = try await store.write { try $0.deleteUser(id: mina.id) }
        #expect(try await store.read { try $0.passkey(credentialID: Fixture.hash(2)) } == nil, "the account's passkeys go with it")
        #expect(try await store.read { try $0.passkeyCount(userID: other.id) } == 1)
    }

    /// WebAuthn challenges: taken once, with their purpose and account; expired ones swept.
    static func webAuthnChallenges(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        try await store.write { try $0.insertUser(mina) }
        let registration = WebAuthnChallengeRecord(hash: Fixture.hash(1), purpose: .registration, userID: mina.id, expiresAt: Fixture.time(300))
        let login = WebAuthnChallengeRecord(hash: Fixture.hash(2), purpose: .login, userID: nil, expiresAt: Fixture.time(100))
        try await store.write { tx in
            try tx.insertWebAuthnChallenge(registration)
            try tx.insertWebAuthnChallenge(login)
        }
        #expect(try await store.write { try $0.takeWebAuthnChallenge(hash: Fixture.hash(1)) } == registration)
        #expect(try await store.write { try $0.takeWebAuthnChallenge(hash: Fixture.hash(1)) } == nil, "single use")
        #expect(try await store.write { try $0.deleteWebAuthnChallenges(expiredBefore: Fixture.time(99)) } == 0)
        #expect(try await store.write { try $0.deleteWebAuthnChallenges(expiredBefore: Fixture.time(100)) } == 1)
        #expect(try await store.write { try $0.takeWebAuthnChallenge(hash: Fixture.hash(2)) } == nil)

        // A refused transaction gives the challenge back.
        try await store.write { try $0.insertWebAuthnChallenge(login) }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.write { tx in
                _ = try tx.takeWebAuthnChallenge(hash: Fixture.hash(2))
                throw Refused()
            }
        }
        #expect(try await store.write { try $0.takeWebAuthnChallenge(hash: Fixture.hash(2)) } == login)
    }

    /// 30 simultaneous answers to one challenge: exactly one gets it.
    static func webAuthnChallengeRace(_ store: any AccountStore) async throws {
        let challenge = WebAuthnChallengeRecord(hash: Fixture.hash(9), purpose: .login, userID: nil, expiresAt: Fixture.time(300))
        try await store.write { try $0.insertWebAuthnChallenge(challenge) }
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<30 { group.addTask { try await store.write { try $0.takeWebAuthnChallenge(hash: Fixture.hash(9)) } != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
    }
}
