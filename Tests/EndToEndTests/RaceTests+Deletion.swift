import AccountAPI
import Foundation
import TestSupport
import Testing

/// Sign-ins racing the deletion of their account, on two servers over one PostgreSQL database and
/// on one server over SQLite: whatever commits first, each sign-in gets a session or the refusal
/// its documentation gives for an unknown account or session, never a 5xx, and no session of
/// the account lives on.
extension RaceTests {
    /// Rounds of the races that delete an account each round.
    static let deletionRounds = 20

    @Test("logins, wrong passwords and refreshes while the account is deleted: a session or 401, never a 5xx", arguments: Backend.available)
    func signInsDuringDeletion(_ backend: Backend) async throws {
        // No back-off, so every try of the burst is checked and counted as it comes.
        let servers = try await Servers.start(backend, ["--login-attempts", "0"])
        try await servers.rounds(Self.deletionRounds) { round in
            let account = TestAccount("gone")
            try await servers.a.signUp(account)
            let owner = try await servers.a.logIn(account)
            let first = try await servers.b.logIn(account)
            let next = try await servers.b.refresh(first.refresh)
            guard next.status == 200 else { return "refresh before the burst: \(next.status) \(next.text)" }
            let rotated = try next.decode(TokenPair.self)
            let right = ["username": account.username, "password": account.password]
            let wrong = ["username": account.username, "password": account.password + "-not"]
            let replies = try await Burst.send(
                [Burst.Request(port: servers.port(round), "DELETE", "/auth/me", json: ["password": account.password], token: owner.access)]
                    + (0..<8).map { Burst.Request(port: servers.port($0), "POST", "/auth/login", json: $0 < 4 ? right : wrong) }
                    + [
                        Burst.Request(port: servers.a.port, "POST", "/auth/refresh", json: ["refresh": rotated.refresh]),
                        // The spent token from another client: reuse, which revokes the session and records it.
                        Burst.Request(port: servers.b.port, "POST", "/auth/refresh", json: ["refresh": first.refresh], headers: ["User-Agent": "elsewhere"]),
                    ])
            let (deletion, logins, refreshes) = (replies[0], Array(replies[1...8]), Array(replies[9...]))
            let fine = deletion.status == 204
                && logins.allSatisfy { $0.status == 200 || $0.problem?.code == .invalidCredentials }
                && refreshes.allSatisfy { $0.status == 200 || [.tokenInvalid, .sessionRevoked, .refreshTokenReused].contains($0.problem?.code) }
            guard fine else { return Self.summary(replies) }
            return try await Self.sessionOutlivingItsAccount(logins + refreshes, servers)
        }
    }

    @Test("second-factor answers and logins while the account is deleted: a session, code_invalid, mfa_required or 401, never a 5xx", arguments: Backend.available)
    func secondFactorDuringDeletion(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend, ["--login-attempts", "0"])
        try await servers.rounds(Self.deletionRounds / 2) { round in
            let factor = try await servers.a.accountWithSecondFactor("mfagone")
            var challenges: [String] = []
            for index in 0..<6 {
                challenges.append(try #require(try await (index.isMultiple(of: 2) ? servers.a : servers.b).challenge(factor.account).mfaToken))
            }
            // Off by one from the code of this step: wrong (the neighbouring steps' codes are others).
            let wrong = String(format: "%06d", (Int(factor.code(at: servers.clock.serverNow))! + 1) % 1_000_000)
            let replies = try await Burst.send(
                [Burst.Request(
                    port: servers.port(round), "DELETE", "/auth/me",
                    json: ["password": factor.account.password, "recovery_code": factor.recoveryCodes[0]], token: factor.pair.access)]
                    + challenges.enumerated().map { index, challenge in
                        // Two right answers (recovery codes), the rest wrong codes.
                        let answer = index < 2 ? ["recovery_code": factor.recoveryCodes[index + 1]] : ["code": wrong]
                        return Burst.Request(port: servers.port(index), "POST", "/auth/mfa/verify", json: answer.merging(["mfa_token": challenge]) { $1 })
                    }
                    // Logins with the right password, whose challenge is stored for an account maybe gone.
                    + (0..<2).map { index in
                        Burst.Request(
                            port: servers.port(index), "POST", "/auth/login",
                            json: ["username": factor.account.username, "password": factor.account.password])
                    })
            let (answers, logins) = (Array(replies[1...6]), replies[7...])
            let fine = replies[0].status == 204 && answers.allSatisfy { $0.status == 200 || $0.problem?.code == .codeInvalid }
                && logins.allSatisfy { [.mfaRequired, .invalidCredentials].contains($0.problem?.code) }
            guard fine else { return Self.summary(replies) }
            return try await Self.sessionOutlivingItsAccount(answers, servers)
        }
    }

    /// A session that one of `replies` opened (before the deletion committed) and that still
    /// refreshes: it should have gone with its account (`token_invalid`).
    private static func sessionOutlivingItsAccount(_ replies: [Reply], _ servers: Servers) async throws -> String? {
        for pair in replies.compactMap({ $0.status == 200 ? try? $0.decode(TokenPair.self) : nil }) {
            let after = try await servers.b.refresh(pair.refresh)
            if after.problem?.code != .tokenInvalid { return "a session outlived its account: \(after.status) \(after.text)" }
        }
        return nil
    }
}
