import AccountAPI
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Logins whose password check (tens of milliseconds of hashing, outside any transaction) overlaps
/// a change of the account: the session opens only for the account as it is when it opens.
@Suite("Logins racing the account's deletion or a new password")
struct AccountRaceTests {
    static let password = "correct horse battery"
    static let logins = 6

    /// A fresh account, then `logins` logins with its password started together with `change`
    /// (made with the account's first session); the harness and the replies.
    static func loginsDuring(
        _ change: @escaping @Sendable (Harness, TokenPair) async throws -> Reply
    ) async throws -> (harness: Harness, change: Reply, logins: [Reply]) {
        // The account's back-off would refuse tries that come all at once.
        let harness = try await Harness.make { $0.loginAttempts = 0 }
        let pair = try await harness.signedIn(TestAccount(username: "racer", email: "racer@example.com", password: password))
        return try await withThrowingTaskGroup(of: (Int, Reply).self) { group in
            for index in 0...logins {
                group.addTask {
                    if index == 0 { return (0, try await change(harness, pair)) }
                    return (index, try await harness.send("POST", "/auth/login", json: ["username": "racer", "password": password]))
                }
            }
            var replies: [Int: Reply] = [:]
            for try await (index, reply) in group { replies[index] = reply }
            return (harness, replies[0]!, (1...logins).map { replies[$0]! })
        }
    }

    @Test("logins while the account is deleted get a session or 401, never a 500")
    func deletion() async throws {
        for _ in 0..<3 {
            let (harness, deleted, logins) = try await Self.loginsDuring { harness, pair in
                try await harness.send("DELETE", "/auth/me", json: ["password": Self.password], token: pair.access)
            }
            #expect(deleted.status == 204, "\(deleted.text)")
            for login in logins { #expect([200, 401].contains(login.status), "\(login.status) \(login.text)") }
            let counts = try await harness.rowCounts()
            #expect(counts["users"] == 0 && counts["sessions"] == 0, "\(counts)")
        }
    }

    @Test("no login with the old password keeps a session once the new password is in")
    func passwordChange() async throws {
        for _ in 0..<3 {
            let (harness, changed, logins) = try await Self.loginsDuring { harness, pair in
                try await harness.send("POST", "/auth/password/change", json: ["current_password": Self.password, "new_password": "a brand new secret"], token: pair.access)
            }
            #expect(changed.status == 204, "\(changed.text)")
            for login in logins {
                #expect([200, 401].contains(login.status), "\(login.status) \(login.text)")
                guard login.status == 200 else { continue }
                let access = try login.decode(TokenPair.self).access
                #expect(try await harness.send("GET", "/auth/me", token: access).code == "session_revoked")
            }
        }
    }
}
