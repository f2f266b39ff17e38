import AccountAPI
import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// What the second factor leaves in the database, and what refused requests leave (nothing).
@Suite("Second factor at rest")
struct SecondFactorStorageTests {
    /// An account signed in, enrolled and confirmed in process; its token, secret and recovery codes.
    func enabled(_ harness: Harness) async throws -> (access: String, userID: UUID, secret: [UInt8], codes: [String], base32: String) {
        let pair = try await harness.signedIn(.minsu)
        let enrolment = try await harness.send("POST", "/auth/mfa/totp", json: ["password": "correct horse battery"], token: pair.access)
            .decode(TOTPEnrollment.self)
        let secret = try #require(TOTPGenerator.base32Decode(enrolment.secret))
        let confirmed = try await harness.send(
            "POST", "/auth/mfa/totp/confirm", json: ["code": TOTPGenerator.code(secret: secret, at: harness.clock.now)], token: pair.access)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        return (pair.access, pair.user.id, secret, try confirmed.decode(RecoveryCodes.self).recoveryCodes, enrolment.secret)
    }

    @Test("the secret is sealed for its account and recovery codes are only keyed hashes")
    func nothingInClear() async throws {
        let harness = try await Harness.make()
        let account = try await enabled(harness)
        let factor = try #require(try await harness.store.read { try $0.totpFactor(userID: account.userID) })
        #expect(factor.sealedSecret.count == 20 + 40)
        #expect(!Self.contains(factor.sealedSecret, account.secret))
        let factors = harness.app.services.secondFactor
        #expect(try factors.open(factor) == account.secret)
        var moved = factor
        moved.userID = UUID()
        #expect(throws: StoreError.self) { try factors.open(moved) }
        #expect(try await harness.rowCounts()["recovery_codes"] == 10)

        // The database's files (committed pages are in one or the other) hold neither the secret (raw or base32) nor any recovery code.
        var bytes: [UInt8] = []
        for suffix in ["", "-wal"] {
            bytes += (try? [UInt8](Data(contentsOf: harness.folder.appendingPathComponent("account.sqlite" + suffix)))) ?? []
        }
        #expect(bytes.count > 10_000)
        #expect(!Self.contains(bytes, account.secret))
        #expect(!Self.contains(bytes, Array(account.base32.utf8)))
        for code in account.codes {
            #expect(!Self.contains(bytes, Array(code.utf8)) && !Self.contains(bytes, Array(code.replacingOccurrences(of: "-", with: "").utf8)))
        }
    }

    @Test("refused second-factor requests write nothing but their counted try")
    func refusalsChangeNothing() async throws {
        // Without the back-off, so each request meets its own refusal rather than a 429.
        let harness = try await Harness.make { $0.loginAttempts = 0 }
        let account = try await enabled(harness)
        // Only the back-off row may appear: wrong codes count there, as wrong passwords do; and
        // each wrong password or code is a failed attempt in the account's security history.
        func counts() async throws -> [String: Int] {
            try await harness.rowCounts().filter { $0.key != "login_throttles" && $0.key != "security_events" }
        }
        let eventsBefore = try await harness.store.read { try $0.securityEvents(userID: account.userID, after: nil, limit: 100) }
        _ = try await harness.mails()  // the confirmation's notice leaves the outbox now, not during the checks
        let before = try await counts()
        let code = TOTPGenerator.code(secret: account.secret, at: harness.clock.now.addingTimeInterval(30))
        let wrong = code == "000000" ? "111111" : "000000"
        let refused: [(String, String, [String: Any])] = [
            ("POST", "/auth/mfa/totp", ["password": "correct horse battery"]),
            ("POST", "/auth/mfa/totp", ["password": "wrong password"]),
            ("POST", "/auth/mfa/totp/confirm", ["code": code]),
            ("POST", "/auth/mfa/recovery-codes", ["password": "correct horse battery", "code": wrong]),
            ("POST", "/auth/mfa/recovery-codes", ["password": "correct horse battery"]),
            ("DELETE", "/auth/mfa/totp", ["password": "correct horse battery", "code": wrong]),
            ("DELETE", "/auth/mfa/totp", ["password": "correct horse battery", "recovery_code": "00000-00000"]),
            ("DELETE", "/auth/mfa/totp", ["password": "wrong password", "recovery_code": account.codes[0]]),
            ("POST", "/auth/password/change", ["current_password": "correct horse battery", "new_password": "another good password"]),
            ("POST", "/auth/password/change", ["current_password": "correct horse battery", "new_password": "another good password", "code": wrong]),
            ("DELETE", "/auth/me", ["password": "correct horse battery", "recovery_code": "zzzzz-zzzzz"]),
            ("POST", "/auth/mfa/verify", ["mfa_token": "unknown", "code": code]),
            ("POST", "/auth/mfa/verify", ["code": code]),
        ]
        for (method, path, body) in refused {
            let reply = try await harness.send(method, path, json: body, token: account.access)
            #expect([400, 403, 409, 422].contains(reply.status), "\(method) \(path): \(reply.status) \(reply.text)")
            #expect(try await counts() == before, "\(method) \(path) wrote")
        }
        // (The clock stands still here, so the events share one moment: counted, not ordered.)
        let eventsAfter = try await harness.store.read { try $0.securityEvents(userID: account.userID, after: nil, limit: 100) }
        #expect(eventsAfter.count == eventsBefore.count + 6, "the wrong passwords and codes, nothing else")
        #expect(eventsAfter.filter { $0.type == "login_failed" }.count == eventsBefore.filter { $0.type == "login_failed" }.count + 6)
        #expect(try await harness.send("GET", "/auth/me", token: account.access).decode(User.self).mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
        // The recovery code offered with a wrong password was not spent, nor the code.
        #expect(try await harness.store.write { tx in
            try tx.useRecoveryCode(userID: account.userID, hash: harness.app.services.secondFactor.hash(
                recoveryCode: RecoveryCodeRule.normalize(account.codes[0])!, userID: account.userID))
        } == 9)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
