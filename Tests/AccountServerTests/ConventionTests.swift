import AccountAPI
import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

@Suite("HTTP conventions of docs/API.md")
struct ConventionTests {
    @Test("malformed input of every kind is 400/415 problem+json and changes nothing")
    func malformedInput() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(.minsu)
        let before = try await harness.rowCounts()
        let json = ["Content-Type": "application/json"]
        let cases: [(String, [UInt8], [String: String], Int)] = [
            ("not json", Array("{nope".utf8), json, 400),
            ("array", Array("[1,2]".utf8), json, 400),
            ("string", Array("\"hello\"".utf8), json, 400),
            ("null", Array("null".utf8), json, 400),
            ("wrong type", Array(#"{"username": 5, "email": "a@b.co", "password": "x", "mbti": "INTJ"}"#.utf8), json, 400),
            ("nested wrong type", Array(#"{"username": ["a"], "email": "a@b.co"}"#.utf8), json, 400),
            ("invalid UTF-8", [0x7B, 0x22, 0x75, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D], json, 400),
            ("empty body", [], json, 400),
            ("form body", Array("username=a&password=b".utf8), ["Content-Type": "application/x-www-form-urlencoded"], 415),
            ("no content type", Array("{}".utf8), [:], 415),
        ]
        for (name, body, headers, status) in cases {
            let reply = try await harness.send("POST", "/auth/signup", body: Data(body), headers: headers)
            #expect(reply.status == status, "\(name): \(reply.text)")
            #expect(reply.header("Content-Type") == "application/problem+json", "\(name)")
            #expect(reply.code == (status == 400 ? "invalid_request" : "unsupported_media_type"), "\(name)")
        }
        let charset = try await harness.send("POST", "/auth/refresh", body: Data(#"{"refresh":"unknown"}"#.utf8), headers: ["Content-Type": "application/json; charset=utf-8"])
        #expect(charset.status == 401)
        for path in ["/auth/email/code", "/auth/email/verify", "/auth/login", "/auth/refresh"] {
            for (name, body, headers, status) in cases where !name.contains("wrong type") {
                #expect(try await harness.send("POST", path, body: Data(body), headers: headers).status == status, "\(path) \(name)")
            }
        }
        #expect(try await harness.rowCounts() == before)
    }

    @Test("unknown paths are 404, wrong methods 405 with Allow, trailing slashes work")
    func routing() async throws {
        let harness = try await Harness.make()
        let missing = try await harness.send("GET", "/auth/nothing")
        #expect(missing.status == 404)
        #expect(missing.code == "not_found")
        let wrongMethod = try await harness.send("GET", "/auth/login")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        #expect(try await harness.send("GET", "/auth/policy/").status == 200)
        #expect(try await harness.send("POST", "/auth/login/", json: ["username": "x", "password": "y"]).status == 401)
        #expect(try await harness.send("DELETE", "/healthz").header("Allow") == "GET, HEAD")
    }

    @Test("every reply carries a request id, nosniff, and no-store under /auth and /admin/api")
    func commonHeaders() async throws {
        let harness = try await Harness.make()
        let echoed = try await harness.send("GET", "/auth/policy", headers: ["X-Request-Id": "abc-123"])
        #expect(echoed.header("X-Request-Id") == "abc-123")
        #expect(echoed.header("X-Content-Type-Options") == "nosniff")
        #expect(echoed.header("Cache-Control") == "no-store")
        #expect(echoed.header("Server") == nil)
        let generated = try await harness.send("GET", "/healthz", headers: ["X-Request-Id": "bad id\u{7F} with spaces"])
        #expect(UUID(uuidString: generated.header("X-Request-Id") ?? "") != nil)
        #expect(generated.header("Cache-Control") == nil)
        let problem = try await harness.send("GET", "/nope")
        #expect(problem.header("X-Request-Id") != nil)
        // Operators' data too, even refused.
        #expect(try await harness.send("GET", "/admin/api/users").header("Cache-Control") == "no-store")
        #expect(try await harness.send("GET", "/admin/api/audit").header("Cache-Control") == "no-store")
    }

    @Test("a request the HTTP layer refuses carries the marks of the route it was meant for")
    func refusalsCarryTheirRoutesMarks() async throws {
        let harness = try await Harness.make()
        func refused(_ method: String, _ path: String) -> Reply {
            Reply(response: harness.app.refused(
                HTTPRequest(method: method, path: path, query: [:], headers: ["X-Request-Id": "r-1"], body: []), .requestTimeout))
        }
        for (method, path) in [("GET", "/auth/policy"), ("POST", "/auth/login"), ("GET", "/auth/nowhere"), ("GET", "/admin/api/users")] {
            let reply = refused(method, path)
            #expect(reply.status == 408)
            #expect(reply.header("Cache-Control") == "no-store", "\(method) \(path)")
            #expect(reply.header("X-Request-Id") == "r-1")
        }
        #expect(refused("GET", "/healthz").header("Cache-Control") == nil)
    }

    @Test("problem texts follow Accept-Language")
    func localizedProblems() async throws {
        let harness = try await Harness.make()
        let english = try await harness.send("GET", "/auth/me")
        let korean = try await harness.send("GET", "/auth/me", headers: ["Accept-Language": "ko"])
        #expect(english.code == korean.code)
        #expect(english["title"] as? String != korean["title"] as? String)
        #expect((korean["title"] as? String)?.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } == true)
    }

    @Test("policy describes the rules in force")
    func policy() async throws {
        let harness = try await Harness.make { $0.allowUnverifiedLogin = true }
        let policy = try await harness.send("GET", "/auth/policy").decode(Policy.self)
        #expect(policy.mbtiTypes.count == 16)
        #expect(policy.password.minLength == 8)
        #expect(policy.code.length == 6)
        #expect(policy.code.lifetime == 600)
        #expect(policy.emailVerificationRequired == false)
        #expect(policy.accessTokenLifetime == 900)
    }

    @Test("the per-address limit answers 429 with Retry-After")
    func addressLimit() async throws {
        let harness = try await Harness.make { $0.ipRateLimit = 3 }
        for _ in 0..<3 { #expect(try await harness.send("GET", "/auth/policy").status == 200) }
        let limited = try await harness.send("GET", "/auth/policy")
        #expect(limited.status == 429)
        #expect(limited.code == "rate_limited")
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 > 0)
        #expect(try await harness.send("GET", "/healthz").status == 200, "only /auth is limited")
    }

    @Test("the per-address limit can live in the database, shared by every server on it")
    func sharedAddressLimit() async throws {
        let harness = try await Harness.make { $0.ipRateLimit = 2; $0.addressLimitShared = true }
        #expect(try await harness.send("GET", "/auth/policy").status == 200)
        #expect(try await harness.send("GET", "/auth/policy").status == 200)
        let limited = try await harness.send("GET", "/auth/policy")
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") == "60")
        #expect(try await harness.rowCounts()["rate_counters"] == 1)
        harness.clock.advance(60)
        #expect(try await harness.send("GET", "/auth/policy").status == 200)
    }

    @Test("readyz answers 200 while the database answers")
    func readiness() async throws {
        let harness = try await Harness.make()
        #expect(try await harness.send("GET", "/readyz").status == 200)
        await harness.store.close()
        let down = try await harness.send("GET", "/readyz")
        #expect(down.status == 503)
        #expect(down.code == "service_unavailable")
    }
}
