import AccountStore
import Foundation

/// Second-factor races, as the server's handlers write them: the same authenticator code (or
/// recovery code) sent by several requests at once, on one server or two.
extension StoreRaces {
    /// A user with a confirmed factor whose last step is 100, and three recovery codes.
    static func userWithFactor(_ store: any AccountStore) async throws -> UserRecord {
        let user = Fixture.user("f\(UUID().uuidString.prefix(8))")
        try await store.write { tx in
            try tx.insertUser(user)
            _ = try tx.upsertPendingTOTP(TOTPFactorRecord(userID: user.id, sealedSecret: Fixture.hash(1), createdAt: Fixture.time()))
            _ = try tx.confirmTOTP(userID: user.id, at: Fixture.time(), step: 100)
            try tx.replaceRecoveryCodes(userID: user.id, hashes: [Fixture.hash(10), Fixture.hash(11), Fixture.hash(12)])
        }
        return user
    }

    /// The check of a login's second step: the factor read (locked), then the conditional use.
    static func sameStepAtOnce(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let user = try await userWithFactor(a)
        let outcomes = tally(await atOnce(a, b) { _, store in
            try await store.write { tx in
                guard let factor = try tx.totpFactor(userID: user.id), (factor.lastStep ?? 0) < 101 else { return "replayed" }
                return try tx.useTOTPStep(userID: user.id, step: 101) ? "accepted" : "replayed"
            }
        })
        let last = try await b.read { try $0.totpFactor(userID: user.id)?.lastStep }
        return outcomes == ["accepted": 1, "replayed": width - 1] && last == 101 ? nil : "\(outcomes), last step \(last ?? -1)"
    }

    static func sameRecoveryCodeAtOnce(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let user = try await userWithFactor(a)
        let outcomes = tally(await atOnce(a, b) { _, store in
            try await store.write { tx in try tx.useRecoveryCode(userID: user.id, hash: Fixture.hash(11)).map { "used, \($0) left" } ?? "refused" }
        })
        let left = try await b.read { try $0.user(id: user.id)?.recoveryCodesLeft }
        return outcomes == ["used, 2 left": 1, "refused": width - 1] && left == 2 ? nil : "\(outcomes), \(left ?? -1) left"
    }

    /// Answers to one challenge: each locks it, and the one that finds it still there takes it.
    static func oneChallengeAtOnce(_ a: any AccountStore, _ b: any AccountStore, _ round: Int) async throws -> String? {
        let user = try await userWithFactor(a)
        let hash = Fixture.hash(UInt8(round % 200))
        try await a.write { tx in
            try tx.insertSecondFactorChallenge(SecondFactorChallengeRecord(hash: hash, userID: user.id, createdAt: Fixture.time(), expiresAt: Fixture.time(300)))
        }
        let outcomes = tally(await atOnce(a, b) { _, store in
            try await store.write { tx in
                guard try tx.secondFactorChallenge(hash: hash) != nil else { return "gone" }
                return try tx.deleteSecondFactorChallenge(hash: hash) ? "answered" : "gone"
            }
        })
        return outcomes == ["answered": 1, "gone": width - 1] ? nil : "\(outcomes)"
    }
}
