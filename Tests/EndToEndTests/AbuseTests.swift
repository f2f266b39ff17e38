import AccountAPI
import Foundation
import TestSupport
import Testing

/// The abuse limits of docs/API.md against the real binary, over HTTP; time moves through
/// `--clock-file` instead of sleeping.
@Suite struct AbuseTests {
    func serverWithClock(_ extra: [String] = []) async throws -> (ServerProcess, TestClock) {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        return (try await ServerProcess.start(in: folder, clock: clock, extra), clock)
    }

    @Test func aHundredParallelWrongGuessesGetAtMostFivePasswordChecks() async throws {
        let server = try await ServerProcess.start()
        let (account, _) = try await server.verifiedAccount("guess")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask {
                    try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "guess \(index) guess"]).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 401 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 95)
        await server.stop()
    }

    @Test func unknownAndKnownAccountsFailAlike() async throws {
        let server = try await ServerProcess.start()
        let (account, _) = try await server.verifiedAccount("known")
        var known: [String] = []
        var unknown: [String] = []
        for index in 0..<7 {
            let a = try await server.client.send("POST", "/auth/login", json: ["email": account.email, "password": "wrong \(index) pw"])
            let b = try await server.client.send("POST", "/auth/login", json: ["email": "nobody.\(account.email)", "password": "wrong \(index) pw"])
            known.append("\(a.status) \(a.problem?.code.rawValue ?? "")")
            unknown.append("\(b.status) \(b.problem?.code.rawValue ?? "")")
            // Both back-offs count from their own request: on a loaded machine a second or two of
            // real time passes between the two.
            let waits = [a, b].map { $0.header("Retry-After").flatMap { Int($0) } }
            #expect((waits[0] == nil) == (waits[1] == nil) && abs((waits[0] ?? 0) - (waits[1] ?? 0)) <= 2, "Retry-After \(waits)")
        }
        #expect(known == unknown)
        await server.stop()
    }

    @Test func takenAddressesAnswerLikeFreeOnes() async throws {
        let (server, clock) = try await serverWithClock()
        let (account, _) = try await server.verifiedAccount("owner")
        // One message a minute per address: the sign-up's code went out just now.
        clock.set(ahead: 61)
        let other = TestAccount("free")
        func shape(_ reply: Reply) -> String { "\(reply.status) \(((try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any])?.keys.sorted() ?? [])" }
        let fresh = TestAccount("dup")
        let dup = TestAccount(username: fresh.username, email: account.email.uppercased(), password: fresh.password)
        #expect(shape(try await server.client.send("POST", "/auth/signup", model: dup.signUpRequest)) == shape(try await server.client.send("POST", "/auth/signup", model: other.signUpRequest)))
        for path in ["/auth/password/reset"] {
            #expect(shape(try await server.client.send("POST", path, json: ["email": account.email])) == shape(try await server.client.send("POST", path, json: ["email": "x" + other.email])))
        }
        let third = TestAccount("third")
        #expect(shape(try await server.client.send("POST", "/auth/email/code", json: ["email": account.email, "purpose": "signup"])) == shape(try await server.client.send("POST", "/auth/email/code", json: ["email": third.email, "purpose": "signup"])))
        // The owner got notices, never a code.
        let notices = server.mail.messages(to: account.email).dropFirst()
        #expect(!notices.isEmpty)
        for notice in notices where !notice.contains("password") && !notice.contains("비밀번호") {
            #expect(MailFolder.codes(in: notice).isEmpty)
        }
        await server.stop()
    }

    @Test func codesResendOnceAMinuteFiveAnHourAndFiveTriesEach() async throws {
        let (server, clock) = try await serverWithClock()
        let email = TestAccount("codes").email
        func request() async throws -> Reply { try await server.client.send("POST", "/auth/email/code", json: ["email": email, "purpose": "signup"]) }
        #expect(try await request().status == 202)
        let soon = try await request()
        // Real time passes between the two requests too (tens of seconds on a loaded machine):
        // up to a minute is left.
        #expect(soon.status == 429 && (1...60).contains(Int(soon.header("Retry-After") ?? "") ?? 0))
        for minute in 1...4 {
            clock.set(ahead: TimeInterval(61 * minute))
            #expect(try await request().status == 202)
        }
        clock.set(ahead: TimeInterval(61 * 5))
        let hourly = try await request()
        #expect(hourly.status == 429 && Int(hourly.header("Retry-After") ?? "") ?? 0 > 60, "the sixth code in an hour waits for the hour")

        let code = try await server.mail.code(to: email, skipping: 4)
        let wrong = code == "000000" ? "111111" : "000000"
        var answers: [String] = []
        for _ in 0..<5 {
            answers.append(try await server.client.send("POST", "/auth/email/verify", json: ["email": email, "code": wrong]).problem?.code.rawValue ?? "")
        }
        #expect(answers == ["code_invalid", "code_invalid", "code_invalid", "code_invalid", "too_many_attempts"])
        #expect(try await server.client.send("POST", "/auth/email/verify", json: ["email": email, "code": code]).problem?.code == .tooManyAttempts)
        await server.stop()
    }

    @Test func thePerAddressLimitRunsBeforeHashingAndTrustsOnlyNamedProxies() async throws {
        let server = try await ServerProcess.start(["--ip-rate-limit", "3", "--trusted-proxy", "127.0.0.1"])
        for index in 0..<3 {
            #expect(try await server.client.send("GET", "/auth/policy", headers: ["X-Forwarded-For": "203.0.113.7"]).status == 200, "\(index)")
        }
        let limited = try await server.client.send("POST", "/auth/login", json: ["username": "x", "password": "y"], headers: ["X-Forwarded-For": "203.0.113.7"])
        #expect(limited.status == 429 && limited.problem?.code == .rateLimited && limited.header("Retry-After") != nil)
        #expect(try await server.client.send("GET", "/auth/policy", headers: ["X-Forwarded-For": "203.0.113.8"]).status == 200, "another client behind the proxy")
        await server.stop()

        let untrusting = try await ServerProcess.start(["--ip-rate-limit", "2"])
        for spoofed in ["198.51.100.1", "198.51.100.2"] {
            #expect(try await untrusting.client.send("GET", "/auth/policy", headers: ["X-Forwarded-For": spoofed]).status == 200)
        }
        #expect(try await untrusting.client.send("GET", "/auth/policy", headers: ["X-Forwarded-For": "198.51.100.3"]).status == 429, "a header from an untrusted peer is ignored")
        await untrusting.stop()
    }

    @Test func nicknamesRefuseLookAlikesInvisiblesAndReservedNames() async throws {
        let server = try await ServerProcess.start(["--allow-unverified-login"])
        let first = TestAccount("mina")
        #expect(try await server.client.send("POST", "/auth/signup", model: first.signUpRequest).status == 202)
        let fullwidth = String(first.username.unicodeScalars.map { scalar -> Character in
            (0x21...0x7E).contains(scalar.value) && scalar != "_" ? Character(UnicodeScalar(scalar.value + 0xFEE0)!) : Character(scalar)
        })
        for (name, expected) in [(fullwidth, 409), (first.username.uppercased(), 409), ("ad\u{200B}min", 422), ("mi\u{202E}na", 422), ("ＡＤＭＩＮ", 422), ("root", 422)] {
            let other = TestAccount("other")
            let reply = try await server.client.send("POST", "/auth/signup", model: TestAccount(username: name, email: other.email, password: other.password).signUpRequest)
            #expect(reply.status == expected, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        await server.stop()
    }

    @Test func everyReplyCarriesTheSecurityHeadersInTheCallersLanguage() async throws {
        let server = try await ServerProcess.start()
        for (method, path) in [("GET", "/healthz"), ("GET", "/auth/policy"), ("GET", "/nope"), ("POST", "/auth/login"), ("GET", "/openapi.json"), ("GET", "/metrics")] {
            let reply = try await server.client.send(method, path, headers: ["Accept-Language": "ko-KR,ko;q=0.9"])
            #expect(reply.header("X-Content-Type-Options") == "nosniff", "\(path)")
            #expect(reply.header("X-Frame-Options") == "DENY", "\(path)")
            #expect(reply.header("Referrer-Policy") == "no-referrer", "\(path)")
            #expect(reply.header("X-Request-Id") != nil, "\(path)")
            #expect(reply.header("Server") == nil, "\(path)")
            if reply.status >= 400, let title = reply.problem?.title {
                #expect(title.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(path): \(title)")
            }
        }
        let metrics = String(decoding: try await server.client.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("http_requests_total{") && metrics.contains("password_hash_queue_length"))
        await server.stop()
    }
}
