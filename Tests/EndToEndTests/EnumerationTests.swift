import AccountAPI
import Foundation
import TestSupport
import Testing

/// Enumeration over HTTP against the real binary: a registered or taken address must look like
/// an unknown or free one in every reply, its time, and every request that follows.
@Suite struct EnumerationTests {
    /// What a client can compare between two replies: status, problem code, whether `Retry-After`
    /// and `WWW-Authenticate` came, the field names of the body, and the shape of a sign-up's
    /// `signup_token` (length and alphabet; the value is new for every sign-up).
    static func observable(_ reply: Reply) -> String {
        let fields = reply.object?.keys.sorted().joined(separator: ",") ?? "-"
        let token = (reply.object?["signup_token"] as? String).map { token in
            "token \(token.count) \(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })"
        } ?? "-"
        return "\(reply.status) \(reply.problem?.code.rawValue ?? "-") \(reply.header("Retry-After") != nil) \(reply.header("WWW-Authenticate") ?? "-") \(fields) \(token)"
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func resetConfirmationAnswersARegisteredAddressLikeAnUnknownOneInRepliesAndTime() async throws {
        // Real-sized hashing, so that a hash on one side would show in the time.
        let (server, clock) = try await AbuseTests().serverWithClock(["--hash-memory", "19456", "--hash-passes", "2"])
        let (account, _) = try await server.verifiedAccount("resetenum")
        let unknown = TestAccount("resetghost").email
        clock.set(ahead: 61)
        for email in [account.email, unknown] {
            #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": email]).status == 202)
        }
        let code = try await server.mail.code(to: account.email, skipping: 1)
        let wrong = code == "000000" ? "111111" : "000000"
        let local = String(account.email.prefix { $0 != "@" })
        func confirm(_ email: String, _ password: String) async throws -> (Reply, Double) {
            let start = ContinuousClock.now
            let reply = try await server.client.send("POST", "/auth/password/reset/confirm", json: ["email": email, "code": wrong, "new_password": password])
            let elapsed = start.duration(to: .now)
            return (reply, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        for password in ["a perfectly good new secret", "short", "password123", "x\(account.username)x", "\(local)-again", ""] {
            let (registered, _) = try await confirm(account.email, password)
            let (other, _) = try await confirm(unknown, password)
            #expect(Self.observable(registered) == Self.observable(other), "\(password): \(registered.text) / \(other.text)")
            #expect(registered.status == 400 || registered.status == 429, "\(registered.text)")
        }

        // Time: wrong codes with a password the account would accept, interleaved; against the
        // time of one password check (a failed login).
        var registeredTimes: [Double] = []
        var unknownTimes: [Double] = []
        var hashTimes: [Double] = []
        for index in 0..<15 {
            registeredTimes.append(try await confirm(account.email, "a perfectly good new secret").1)
            unknownTimes.append(try await confirm(unknown, "a perfectly good new secret").1)
            if index < 5 {
                let start = ContinuousClock.now
                _ = try await server.client.send("POST", "/auth/login", json: ["username": "nobody_\(index)", "password": "wrong password \(index)"])
                let elapsed = start.duration(to: .now)
                hashTimes.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
        }
        let difference = abs(Self.median(registeredTimes) - Self.median(unknownTimes))
        #expect(difference < Self.median(hashTimes) / 2,
                "registered \(Self.median(registeredTimes)) ms, unknown \(Self.median(unknownTimes)) ms, one hash \(Self.median(hashTimes)) ms")
        await server.stop()
    }

    @Test func aTakenAddressAndAFreeOneLookTheSameAfterASignUp() async throws {
        let (server, clock) = try await AbuseTests().serverWithClock()
        let (owner, _) = try await server.verifiedAccount("owner")
        let taken = TestAccount(username: TestAccount("takenside").username, email: owner.email.uppercased(), password: "Stranger-\(UUID().uuidString)")
        let free = TestAccount(username: TestAccount("freeside").username, email: TestAccount("freeside").email, password: taken.password)
        let third = try await server.verifiedAccount("bystander").1
        func same(_ what: String, _ probe: (TestAccount) async throws -> Reply, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let a = Self.observable(try await probe(taken))
            let b = Self.observable(try await probe(free))
            #expect(a == b, "\(what): taken \(a) / free \(b)", sourceLocation: sourceLocation)
            return a
        }
        func signUp(_ account: TestAccount, nickname: String? = nil, email: String? = nil) async throws -> Reply {
            try await server.client.send("POST", "/auth/signup", model: TestAccount(
                username: nickname ?? account.username, email: email ?? account.email, password: account.password).signUpRequest)
        }

        var tokens: [String: String] = [:]
        #expect(try await same("sign-up") { account in
            let reply = try await signUp(account)
            tokens[account.email] = reply.object?["signup_token"] as? String
            return reply
        }.hasSuffix("email,expires_in,signup_token,verification token 43 true"))
        #expect(tokens[taken.email] != nil && tokens[taken.email] != tokens[free.email])
        #expect(try await same("login with the sign-up's password") {
            try await server.client.send("POST", "/auth/login", json: ["email": $0.email, "password": $0.password])
        }.hasPrefix("403 email_not_verified"))
        _ = try await same("login by nickname") {
            try await server.client.send("POST", "/auth/login", json: ["username": $0.username, "password": $0.password])
        }
        #expect(try await same("the nickname from another address") {
            try await signUp($0, email: TestAccount("other").email)
        }.hasPrefix("409"))
        _ = try await same("the nickname in a profile change") {
            try await server.client.send("PATCH", "/auth/me", json: ["username": $0.username], token: third.access)
        }
        #expect(try await same("the same sign-up at once") { try await signUp($0, nickname: $0.username + "x") }.hasPrefix("429"))
        _ = try await same("a verify code") {
            try await server.client.send("POST", "/auth/email/code", json: ["email": $0.email, "purpose": "verify"])
        }
        _ = try await same("a sign-up code") {
            try await server.client.send("POST", "/auth/email/code", json: ["email": $0.email, "purpose": "signup"])
        }
        _ = try await same("a reset code") { try await server.client.send("POST", "/auth/password/reset", json: ["email": $0.email]) }
        _ = try await same("a guessed code") {
            try await server.client.send("POST", "/auth/email/verify", json: ["email": $0.email, "code": "123456"])
        }
        #expect(try await same("a guessed code, signing in with the sign-up's token") {
            try await server.client.send("POST", "/auth/email/verify", json: [
                "email": $0.email, "code": "123456", "sign_in": true, "signup_token": tokens[$0.email] ?? "",
            ])
        }.hasPrefix("400 code_invalid"))
        clock.set(ahead: 61)
        #expect(try await same("a sign-up a minute later") { try await signUp($0, nickname: $0.username + "x") }.hasPrefix("202"))
        #expect(try await same("the first nickname, released") { try await signUp($0, email: TestAccount("fourth").email) }.hasPrefix("202"))
        await server.stop()
    }

    @Test func eightSignUpsInASecondMailTheOwnerOneNotice() async throws {
        let (server, clock) = try await AbuseTests().serverWithClock()
        let (owner, _) = try await server.verifiedAccount("victim")
        clock.set(ahead: 61)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let request = TestAccount(username: TestAccount("burst\(index)").username, email: owner.email, password: "Stranger-\(UUID().uuidString)").signUpRequest
                    return try await server.client.send("POST", "/auth/signup", model: request).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 202 }.count == 1 && statuses.filter { $0 == 429 }.count == 7, "\(statuses)")
        // Other kinds of mail in the same second share the budget.
        #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": owner.email]).status == 202)
        #expect(try await server.client.send("POST", "/auth/email/code", json: ["email": owner.email, "purpose": "signup"]).status == 202)
        #expect(try await server.mail.settledCount(to: owner.email, expected: 2) == 2, "the sign-up code, then one notice")
        let messages = server.mail.messages(to: owner.email)
        #expect(MailFolder.codes(in: messages.last ?? "").isEmpty)
        await server.stop()
    }

    @Test func theMailBudgetIsConfigurable() async throws {
        let server = try await ServerProcess.start(["--mail-interval", "0", "--mail-per-hour", "2"])
        let email = TestAccount("budget").email
        for index in 0..<3 {
            let request = TestAccount(username: TestAccount("budget\(index)").username, email: email, password: "Pw-\(UUID().uuidString)").signUpRequest
            #expect(try await server.client.send("POST", "/auth/signup", model: request).status == (index < 2 ? 202 : 429))
        }
        #expect(try await server.client.send("POST", "/auth/email/code", json: ["email": email, "purpose": "signup"]).status == 202)
        #expect(try await server.mail.settledCount(to: email, expected: 2) == 2)
        await server.stop()
    }
}
