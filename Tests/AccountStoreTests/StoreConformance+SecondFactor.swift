import AccountStore
import Foundation
import Testing

extension StoreConformance {
    /// Enrolment, confirmation, steps used once, disabling, and the account's summary in `users`.
    static func totpFactors(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let other = Fixture.user("Other")
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(other)
        }
        #expect(try await store.read { try $0.totpFactor(userID: mina.id) } == nil)
        let first = TOTPFactorRecord(userID: mina.id, sealedSecret: Fixture.hash(1), createdAt: Fixture.time())
        #expect(try await store.write { try $0.upsertPendingTOTP(first) })
        #expect(try await store.read { try $0.totpFactor(userID: mina.id) } == first)
        let user = try await store.read { try $0.user(id: mina.id) }
        #expect(user?.totpEnabled == false && user?.recoveryCodesLeft == 0, "an enrolment changes nothing for login")

        // A new enrolment replaces an unconfirmed one.
        let second = TOTPFactorRecord(userID: mina.id, sealedSecret: Fixture.hash(2), createdAt: Fixture.time(10))
        #expect(try await store.write { try $0.upsertPendingTOTP(second) })
        #expect(try await store.read { try $0.totpFactor(userID: mina.id) } == second)
        #expect(try await store.write { try $0.useTOTPStep(userID: mina.id, step: 5) } == false, "no step is used before confirmation")

        #expect(try await store.write { try $0.confirmTOTP(userID: mina.id, at: Fixture.time(20), step: 100) })
        #expect(try await store.write { try $0.confirmTOTP(userID: mina.id, at: Fixture.time(21), step: 101) } == false)
        #expect(try await store.write { try $0.confirmTOTP(userID: other.id, at: Fixture.time(21), step: 101) } == false)
        let confirmed = try await store.read { try $0.totpFactor(userID: mina.id) }
        #expect(confirmed?.confirmedAt == Fixture.time(20) && confirmed?.lastStep == 100)
        #expect(try await store.read { try $0.user(id: mina.id)?.totpEnabled } == true)
        #expect(try await store.read { try $0.user(id: other.id)?.totpEnabled } == false)
        // A confirmed factor is not replaced by a new enrolment.
        #expect(try await store.write { try $0.upsertPendingTOTP(first) } == false)
        #expect(try await store.read { try $0.totpFactor(userID: mina.id) } == confirmed)

        // Steps: each later one once, never an earlier one.
        #expect(try await store.write { try $0.useTOTPStep(userID: mina.id, step: 100) } == false)
        #expect(try await store.write { try $0.useTOTPStep(userID: mina.id, step: 99) } == false)
        #expect(try await store.write { try $0.useTOTPStep(userID: mina.id, step: 101) })
        #expect(try await store.write { try $0.useTOTPStep(userID: mina.id, step: 101) } == false)
        #expect(try await store.read { try $0.totpFactor(userID: mina.id)?.lastStep } == 101)

        // A profile update leaves the summary alone.
        var renamed = try #require(try await store.read { try $0.user(id: mina.id) })
        renamed.totpEnabled = false
        renamed.mbti = "ENFP"
        let written = renamed
        try await store.write { try $0.updateUser(written) }
        #expect(try await store.read { try $0.user(id: mina.id)?.totpEnabled } == true)

        try await store.write { try $0.replaceRecoveryCodes(userID: mina.id, hashes: [Fixture.hash(7)]) }
        #expect(try await store.write { try $0.disableTOTP(userID: mina.id) })
        #expect(try await store.write { try $0.disableTOTP(userID: mina.id) } == false)
        #expect(try await store.read { try $0.totpFactor(userID: mina.id) } == nil)
        let off = try await store.read { try $0.user(id: mina.id) }
        #expect(off?.totpEnabled == false && off?.recoveryCodesLeft == 0)
        #expect(try await store.write { try $0.useRecoveryCode(userID: mina.id, hash: Fixture.hash(7)) } == nil, "disabling drops the codes")
    }

    /// Recovery codes: a set replaces the last, each is used once, the count follows.
    static func recoveryCodes(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let other = Fixture.user("Other")
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(other)
            try tx.replaceRecoveryCodes(userID: mina.id, hashes: (10...14).map { Fixture.hash($0) })
        }
        #expect(try await store.read { try $0.user(id: mina.id)?.recoveryCodesLeft } == 5)
        #expect(try await store.write { try $0.useRecoveryCode(userID: mina.id, hash: Fixture.hash(12)) } == 4)
        #expect(try await store.write { try $0.useRecoveryCode(userID: mina.id, hash: Fixture.hash(12)) } == nil)
        #expect(try await store.write { try $0.useRecoveryCode(userID: other.id, hash: Fixture.hash(13)) } == nil, "another account's code")
        #expect(try await store.read { try $0.user(id: mina.id)?.recoveryCodesLeft } == 4)

        try await store.write { try $0.replaceRecoveryCodes(userID: mina.id, hashes: [Fixture.hash(20), Fixture.hash(21)]) }
        #expect(try await store.read { try $0.user(id: mina.id)?.recoveryCodesLeft } == 2)
        #expect(try await store.write { try $0.useRecoveryCode(userID: mina.id, hash: Fixture.hash(13)) } == nil, "the old set is gone")
        #expect(try await store.write { try $0.useRecoveryCode(userID: mina.id, hash: Fixture.hash(21)) } == 1)

        // Deleting the account takes its codes, factor and challenges along.
        try await store.write { tx in
            _ = try tx.upsertPendingTOTP(TOTPFactorRecord(userID: mina.id, sealedSecret: Fixture.hash(3), createdAt: Fixture.time()))
            try tx.insertSecondFactorChallenge(SecondFactorChallengeRecord(hash: Fixture.hash(30), userID: mina.id, createdAt: Fixture.time(), expiresAt: Fixture.time(300)))
            try tx.deleteUser(id: mina.id)
        }
        let counts = try await store.rowCounts()
        #expect(counts["totp_factors"] == 0 && counts["recovery_codes"] == 0 && counts["mfa_challenges"] == 0, "\(counts)")
    }

    /// A login's second-factor challenge: found by hash, tries counted, removed, expired ones swept.
    static func secondFactorChallenges(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let challenge = SecondFactorChallengeRecord(hash: Fixture.hash(1), userID: mina.id, createdAt: Fixture.time(), expiresAt: Fixture.time(300))
        let old = SecondFactorChallengeRecord(hash: Fixture.hash(2), userID: mina.id, createdAt: Fixture.time(-600), expiresAt: Fixture.time(-300))
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSecondFactorChallenge(challenge)
            try tx.insertSecondFactorChallenge(old)
        }
        #expect(try await store.read { try $0.secondFactorChallenge(hash: Fixture.hash(1)) } == challenge)
        #expect(try await store.read { try $0.secondFactorChallenge(hash: Fixture.hash(3)) } == nil)
        let counts = try await store.write { tx in try (1...3).map { _ in try tx.countSecondFactorChallengeAttempt(hash: Fixture.hash(1)) } }
        #expect(counts == [1, 2, 3])
        #expect(try await store.write { try $0.countSecondFactorChallengeAttempt(hash: Fixture.hash(3)) } == 0)

        #expect(try await store.write { try $0.deleteSecondFactorChallenges(userID: mina.id, expiredBefore: Fixture.time()) } == 1)
        #expect(try await store.read { try $0.secondFactorChallenge(hash: Fixture.hash(2)) } == nil)
        #expect(try await store.read { try $0.secondFactorChallenge(hash: Fixture.hash(1))?.attempts } == 3)
        #expect(try await store.write { try $0.deleteSecondFactorChallenge(hash: Fixture.hash(1)) })
        #expect(try await store.write { try $0.deleteSecondFactorChallenge(hash: Fixture.hash(1)) } == false)

        try await store.write { tx in
            try tx.insertSecondFactorChallenge(challenge)
            try tx.insertSecondFactorChallenge(old)
        }
        #expect(try await store.write { try $0.deleteSecondFactorChallenges(userID: mina.id, expiredBefore: nil) } == 2)
    }

    /// A session keeps how it was authenticated; sessions without it read as a password login.
    static func sessionAuthenticationMethods(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        var made = Fixture.session(of: mina)
        made.amr = ["pwd", "otp"]
        let session = made
        let plain = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session)
            try tx.insertSession(plain)
        }
        #expect(try await store.read { try $0.session(id: session.id) } == session)
        #expect(try await store.read { try $0.sessionWithUser(id: session.id)?.session } == session)
        #expect(try await store.read { try $0.session(id: plain.id)?.amr } == ["pwd"])
    }
}
