import AccountStore
import Foundation
import Testing

extension StoreConformance {
    /// A pending sign-up; the store does not compute skeletons, so stand-ins are derived from the
    /// name (`folded` may be given to make a look-alike with another key).
    static func pending(_ name: String, email: String? = nil, expiresIn seconds: Int = 86_400, folded: String? = nil) -> PendingSignUpRecord {
        let email = email ?? "\(name)@example.com"
        return PendingSignUpRecord(
            emailKey: email.lowercased(), email: email, username: name, usernameKey: name.lowercased(),
            passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", mbti: "ENFP", createdAt: Fixture.time(),
            expiresAt: Fixture.time(seconds), usernameSkeleton: "folded:" + (folded ?? name.lowercased()),
            usernameDisplaySkeleton: "shown:" + name)
    }

    static func pendingSignUps(_ store: any AccountStore) async throws {
        let mina = pending("Mina")
        try await store.write { try $0.upsertPendingSignUp(mina) }
        #expect(try await store.read { try $0.pendingSignUp(emailKey: "mina@example.com") } == mina)
        #expect(try await store.read { try $0.pendingSignUp(usernameKey: "mina") } == mina)
        #expect(try await store.read { try $0.pendingSignUp(usernameSkeleton: "folded:mina", kind: .folded) } == mina)
        #expect(try await store.read { try $0.pendingSignUp(usernameSkeleton: "shown:Mina", kind: .displayed) } == mina)
        #expect(try await store.read { try $0.pendingSignUp(usernameSkeleton: "shown:Mina", kind: .folded) } == nil)

        // The same address again replaces the hold, nickname, client and all.
        let renamed = {
            var record = pending("Minji", email: "Mina@example.com")
            record.client = Array(repeating: 0xA5, count: 16)
            record.contested = true
            return record
        }()
        try await store.write { try $0.upsertPendingSignUp(renamed) }
        #expect(try await store.read { try $0.pendingSignUp(emailKey: "mina@example.com") } == renamed)
        #expect(try await store.read { try $0.pendingSignUp(usernameKey: "mina") } == nil)

        // Another address cannot hold the same nickname key; the failed write changes nothing.
        await #expect(throws: StoreError.self) {
            try await store.write { try $0.upsertPendingSignUp(pending("MINJI", email: "other@example.com")) }
        }
        #expect(try await store.read { try $0.pendingSignUp(emailKey: "other@example.com") } == nil)
        // Nor a look-alike: another key with the same skeleton.
        await #expect(throws: StoreError.self) {
            try await store.write { try $0.upsertPendingSignUp(pending("M1nji", email: "third@example.com", folded: "minji")) }
        }
        #expect(try await store.read { try $0.pendingSignUp(emailKey: "third@example.com") } == nil)

        let short = pending("Joon", expiresIn: 60)
        try await store.write { try $0.upsertPendingSignUp(short) }
        #expect(try await store.write { try $0.deletePendingSignUps(expiredBefore: Fixture.time(59)) } == 0)
        #expect(try await store.write { try $0.deletePendingSignUps(expiredBefore: Fixture.time(60)) } == 1)
        #expect(try await store.read { try $0.pendingSignUp(emailKey: "joon@example.com") } == nil)
        #expect(try await store.write { try $0.deletePendingSignUp(emailKey: "mina@example.com") })
        #expect(try await store.write { try $0.deletePendingSignUp(emailKey: "mina@example.com") } == false)
    }
}
