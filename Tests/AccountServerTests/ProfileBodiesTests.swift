import AccountStore
import AccountStoreCache
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// `GET /auth/me`'s bodies kept for reuse: never one written for another state of the account.
@Suite("Profile bodies kept for reuse")
struct ProfileBodiesTests {
    func record(id: UUID = UUID()) -> UserRecord {
        UserRecord(
            id: id, username: "mina", usernameKey: "mina", email: "mina@example.com", emailKey: "mina@example.com",
            passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", mbti: "INFP", emailVerified: true,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), updatedAt: Date(timeIntervalSince1970: 1_790_000_000))
    }

    let fresh: @Sendable (UserRecord) -> [UInt8] = { WireJSON.user($0.wire) }

    @Test("every change the reply shows gives the new reply at once, and going back gives the old one")
    func changes() {
        let bodies = ProfileBodies(encode: fresh)
        let base = record()
        #expect(bodies.body(for: base) == fresh(base))
        let changes: [(String, (inout UserRecord) -> Void)] = [
            ("nickname", { $0.username = "민수" }), ("mbti", { $0.mbti = "ENTJ" }), ("address", { $0.email = "m@x.test" }),
            ("verification", { $0.emailVerified = false }), ("authenticator app", { $0.totpEnabled = true; $0.recoveryCodesLeft = 10 }),
            ("a recovery code used", { $0.totpEnabled = true; $0.recoveryCodesLeft = 9 }), ("Apple", { $0.appleLinked = true }),
            ("no password", { $0.passwordHash = "" }),
        ]
        for (name, change) in changes {
            var changed = base
            change(&changed)
            let body = bodies.body(for: changed)
            #expect(body == fresh(changed), "\(name)")
            #expect(body != fresh(base), "\(name) changes the reply")
            #expect(bodies.body(for: base) == fresh(base), "back from \(name)")
        }
    }

    @Test("accounts sharing a slot each get their own body")
    func sharedSlot() {
        let bodies = ProfileBodies(bits: 2, encode: fresh)
        var records: [UserRecord] = []
        for index in 0..<64 {
            var record = record()
            record.username = "user\(index)"
            records.append(record)
        }
        for _ in 0..<3 {
            for record in records { #expect(bodies.body(for: record) == fresh(record)) }
        }
    }
}
