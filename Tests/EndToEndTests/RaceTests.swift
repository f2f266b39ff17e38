import AccountAPI
import Foundation
import TestSupport
import Testing

/// The same thing at once, as an app waking up or a double tap does it: several requests about
/// one row reach the servers at the same moment (``Burst``), on two servers over one PostgreSQL
/// database and on one server over SQLite. Each race ends in its designed answers and never in
/// a 5xx, round after round: enough rounds that a race lost one time in ten would show.
@Suite(.serialized)
struct RaceTests {
    static let rounds = 50
    /// Rounds of the races that sign up an account or two each round.
    static let signUpRounds = 30

    @Test("eight refreshes of one token at once: all 200 with the same pair, and the session lives on", arguments: Backend.available)
    func eightRefreshesAtOnce(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend)
        let account = TestAccount("refresh8")
        try await servers.a.signUp(account)
        try await servers.rounds(Self.rounds) { round in
            let pair = try await servers.b.logIn(account)
            // Even rounds send all eight to one server, as the app did; odd rounds split them.
            let replies = try await Burst.send((0..<8).map { index in
                Burst.Request(port: servers.port(round.isMultiple(of: 2) ? 0 : index), "POST", "/auth/refresh", json: ["refresh": pair.refresh])
            })
            let pairs = replies.compactMap { $0.status == 200 ? try? $0.decode(TokenPair.self) : nil }
            guard pairs.count == 8, Set(pairs.map(\.refresh)).count == 1, Set(pairs.map { Self.claim("jti", of: $0.access) }).count == 1 else {
                return "\(Self.summary(replies)), \(Set(pairs.map(\.refresh)).count) distinct pairs"
            }
            let next = try await servers.b.refresh(pairs[0].refresh)
            return next.status == 200 ? nil : "the rotated token then got \(next.status) \(next.text)"
        }
    }

    @Test("logout during four refreshes: 204 and 200 or session_revoked, and the session ends", arguments: Backend.available)
    func logoutDuringRefresh(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend)
        let account = TestAccount("logoutrace")
        try await servers.a.signUp(account)
        try await servers.rounds(Self.rounds) { _ in
            let pair = try await servers.a.logIn(account)
            let replies = try await Burst.send(
                [Burst.Request(port: servers.b.port, "POST", "/auth/logout", token: pair.access)]
                    + (0..<4).map { _ in Burst.Request(port: servers.a.port, "POST", "/auth/refresh", json: ["refresh": pair.refresh]) })
            let refreshes = replies.dropFirst()
            let rotated = refreshes.compactMap { $0.status == 200 ? try? $0.decode(TokenPair.self) : nil }
            let fine = replies[0].status == 204
                && refreshes.allSatisfy { $0.status == 200 || $0.problem?.code == .sessionRevoked }
                && Set(rotated.map(\.refresh)).count <= 1
            // Whichever came first, the session is over now.
            let after = try await servers.b.refresh(rotated.first?.refresh ?? pair.refresh)
            return fine && after.problem?.code == .sessionRevoked
                ? nil : "\(Self.summary(replies)); then \(after.status) \(after.problem?.code.rawValue ?? "")"
        }
    }

    @Test("eight logins to one account at once: 200, or 429 once the tries in flight reach the limit", arguments: Backend.available)
    func eightLoginsAtOnce(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend, ["--login-attempts", "5"])
        let account = TestAccount("login8")
        try await servers.a.signUp(account)
        let body = ["username": account.username, "password": account.password]
        try await servers.rounds(Self.rounds) { _ in
            let replies = try await Burst.send((0..<8).map { Burst.Request(port: servers.port($0), "POST", "/auth/login", json: body) })
            let successes = replies.filter { $0.status == 200 }.count
            // The throttle counts a try before its password is checked, so five are always let through.
            let fine = successes >= 5 && replies.allSatisfy { $0.status == 200 || $0.problem?.code == .rateLimited }
            return fine ? nil : Self.summary(replies)
        }
    }

    @Test("eight sign-ups of one nickname at once: one 202, seven username_taken; of one address: one 202, seven rate_limited, one account", arguments: Backend.available)
    func eightSignUpsAtOnce(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend)
        try await servers.rounds(Self.signUpRounds) { _ in
            let nickname = TestAccount("nick").username
            let sameNickname = try await Burst.send((0..<8).map { index in
                let account = TestAccount(username: nickname, email: TestAccount("nick\(index)").email, password: "Pw-\(UUID().uuidString)")
                return Burst.Request(port: servers.port(index), "POST", "/auth/signup", json: account.signUpFields)
            })
            let accepted = sameNickname.filter { $0.status == 202 }.count
            let taken = sameNickname.filter { $0.problem?.code == .usernameTaken }.count
            if accepted != 1 || taken != 7 { return "one nickname: \(Self.summary(sameNickname))" }

            let email = TestAccount("addr").email
            let accounts = (0..<8).map { index in TestAccount(username: TestAccount("addr\(index)").username, email: email, password: "Pw-\(UUID().uuidString)") }
            let sameAddress = try await Burst.send(accounts.enumerated().map { index, account in
                Burst.Request(port: servers.port(index), "POST", "/auth/signup", json: account.signUpFields)
            })
            var created = 0
            for account in accounts where try await servers.a.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password]).status == 200 {
                created += 1
            }
            // The address's code cooldown is claimed first: one sign-up goes through, the rest wait.
            let accepted202 = sameAddress.filter { $0.status == 202 }.count
            let limited = sameAddress.filter { $0.problem?.code == .rateLimited }.count
            let fine = accepted202 == 1 && limited == 7 && created == 1
            return fine ? nil : "one address: \(Self.summary(sameAddress)), \(created) accounts made"
        }
    }

    @Test("eight checks of one code at once: the right code verifies once; wrong ones count every try", arguments: Backend.available)
    func eightCodeChecksAtOnce(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend)
        try await servers.rounds(Self.signUpRounds) { _ in
            let (right, wrong) = (TestAccount("code"), TestAccount("wrong"))
            try await servers.a.signUp(right)
            try await servers.b.signUp(wrong)
            let code = try await servers.a.mail.code(to: right.email)
            let rightCode = try await Burst.send((0..<8).map { index in
                Burst.Request(port: servers.port(index), "POST", "/auth/email/verify", json: ["email": right.email, "code": code])
            })
            let verified = rightCode.filter { $0.status == 200 }.count
            let refused = rightCode.filter { $0.problem?.code == .codeInvalid }.count
            if verified != 1 || refused != 7 { return "right code: \(Self.summary(rightCode))" }

            let wrongCode = String(format: "%06d", (Int(try await servers.a.mail.code(to: wrong.email))! + 1) % 1_000_000)
            let wrongTries = try await Burst.send((0..<8).map { index in
                Burst.Request(port: servers.port(index), "POST", "/auth/email/verify", json: ["email": wrong.email, "code": wrongCode])
            })
            // Five tries allowed: four wrong ones answer code_invalid, the fifth spends the code.
            let invalid = wrongTries.filter { $0.problem?.code == .codeInvalid }.count
            let spent = wrongTries.filter { $0.problem?.code == .tooManyAttempts }.count
            return invalid == 4 && spent == 4 ? nil : "wrong code: \(Self.summary(wrongTries))"
        }
    }

    @Test("thirty requests of one address at once against a limit of twenty: twenty pass, ten 429", arguments: Backend.available)
    func addressCounterAtOnce(_ backend: Backend) async throws {
        let servers = try await Servers.start(backend, ["--ip-rate-limit", "20", "--ip-rate-limit-store", "database", "--trusted-proxy", "127.0.0.1"])
        try await servers.rounds(Self.rounds) { round in
            // A new client address each round, so each round starts a fresh window.
            let address = "10.18.\(round / 200).\(round % 200 + 1)"
            let replies = try await Burst.send((0..<30).map { index in
                Burst.Request(port: servers.port(index), "GET", "/auth/policy", headers: ["X-Forwarded-For": address])
            })
            let passed = replies.filter { $0.status == 200 }.count
            let limited = replies.filter { $0.status == 429 }.count
            return passed == 20 && limited == 10 ? nil : Self.summary(replies)
        }
    }

    // MARK: Helpers

    /// `status code` of each reply, for failure messages.
    static func summary(_ replies: [Reply]) -> String {
        replies.map { reply in reply.problem.map { "\(reply.status) \($0.code.rawValue)" } ?? String(reply.status) }.joined(separator: ", ")
    }

    /// A claim of an access token's payload, as text.
    static func claim(_ name: String, of token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { return nil }
        return object[name].map { "\($0)" }
    }
}

/// Where a race runs.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Two servers on one fresh PostgreSQL database.
    case postgres
    /// One server on a SQLite file (SQLite is for one server).
    case sqlite

    var testDescription: String { rawValue }

    /// What this run can reach: SQLite always, PostgreSQL when `make test` started a cluster.
    static var available: [Backend] { PostgresTestServer.isConfigured ? [.postgres, .sqlite] : [.sqlite] }
}

/// The servers of one race, A and B (the same server twice on SQLite), sharing a mail folder and
/// a clock (at the real time until a test moves it: second-factor codes are read from it).
struct Servers {
    let a: ServerProcess
    let b: ServerProcess
    let clock: TestClock

    /// Starts them with unverified logins allowed and `extra` options.
    static func start(_ backend: Backend, _ extra: [String] = []) async throws -> Servers {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let options = ["--allow-unverified-login"] + extra
        switch backend {
        case .sqlite:
            let server = try await ServerProcess.start(in: folder, clock: clock, options)
            return Servers(a: server, b: server, clock: clock)
        case .postgres:
            let shared = options + ["--database-url", try await PostgresTestServer.freshDatabase()]
            return Servers(a: try await ServerProcess.start(in: folder, clock: clock, shared), b: try await ServerProcess.start(in: folder, clock: clock, shared), clock: clock)
        }
    }

    /// The port of A for even `index`, of B for odd, so a burst reaches both servers.
    func port(_ index: Int) -> Int { (index.isMultiple(of: 2) ? a : b).port }

    /// Runs `count` rounds, each returning what went wrong or `nil`; expects none went wrong, then
    /// stops the servers.
    func rounds(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation, _ round: (Int) async throws -> String?) async throws {
        var failures: [String] = []
        for index in 0..<count {
            if let failure = try await round(index) { failures.append("round \(index): \(failure)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(count) rounds:\n\(failures.prefix(5).joined(separator: "\n"))", sourceLocation: sourceLocation)
        await stop(sourceLocation: sourceLocation)
    }

    /// Stops the servers; neither may have logged a server error.
    func stop(sourceLocation: SourceLocation = #_sourceLocation) async {
        await a.stop(sourceLocation: sourceLocation)
        if b !== a { await b.stop(sourceLocation: sourceLocation) }
        for server in a === b ? [a] : [a, b] {
            let errors = server.logs.split(separator: "\n").filter { $0.contains(#""event":"server_error""#) }
            #expect(errors.isEmpty, "\(errors.count) server errors:\n\(errors.prefix(5).joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }
}
