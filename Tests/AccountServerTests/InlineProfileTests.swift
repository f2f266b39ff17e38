import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// `GET /auth/me` answered on the HTTP thread (`respond(to:)` ready at once) says exactly what the
/// same pipeline says when it waits, and waits whenever it cannot know without waiting.
@Suite("GET /auth/me without waiting")
struct InlineProfileTests {

    func me(_ token: String?, requestID: String = "req-1") -> HTTPRequest {
        var headers: HTTPHeaders = ["X-Request-Id": requestID]
        if let token { headers.set("Authorization", "Bearer \(token)") }
        return HTTPRequest(method: "GET", path: "/auth/me", query: [:], headers: headers, body: [])
    }

    func accessToken(_ harness: Harness) async throws -> String {
        try await harness.signedIn(.minsu).access
    }

    @Test("a token not verified before waits for its check; none, or a malformed header, is refused at once")
    func waitsForUnknownTokens() async throws {
        let harness = try await Harness.make()
        let token = try await accessToken(harness)
        #expect(harness.app.answeredAtOnce(me(token)) == nil)
        #expect(harness.app.answeredAtOnce(me(token + "x")) == nil)
        #expect(Reply(response: try #require(harness.app.answeredAtOnce(me(nil)))).code == "token_invalid")
        _ = await harness.app.handle(me(token))
        var head = me(token)
        head.method = "HEAD"
        #expect(harness.app.answeredAtOnce(head)?.status == 200)
    }

    @Test("once verified, the inline reply equals the ordinary one: status, body and headers")
    func sameReplyAsOrdinaryPath() async throws {
        let harness = try await Harness.make()
        let token = try await accessToken(harness)
        let ordinary = await harness.app.handle(me(token))
        #expect(ordinary.status == 200)
        let inline = try #require(harness.app.answeredAtOnce(me(token)))
        #expect(inline.status == 200)
        #expect(inline.body == ordinary.body)
        for name in ["Content-Type", "Cache-Control", "X-Request-Id", "X-Content-Type-Options", "Content-Security-Policy"] {
            #expect(inline.headers[name] == ordinary.headers[name], "\(name)")
        }
        #expect(inline.headers["X-Request-Id"] == "req-1")
        #expect(try #require(harness.app.answeredAtOnce(me(token, requestID: "trailing"))).status == 200)
    }

    @Test("a profile change shows at once without waiting (the read model drops what a write changes)")
    func readsCurrentProfile() async throws {
        let harness = try await Harness.make()
        let token = try await accessToken(harness)
        _ = await harness.app.handle(me(token))
        #expect(try await harness.send("PATCH", "/auth/me", json: ["username": "새이름", "mbti": "intj"], token: token).status == 200)
        let reply = Reply(response: try #require(harness.app.answeredAtOnce(me(token))))
        #expect(reply["username"] as? String == "새이름")
        #expect(reply["mbti"] as? String == "INTJ")
    }

    @Test("a revoked session is refused at once with the problem the waiting path gives, verified token or not")
    func revokedSessionRefused() async throws {
        let harness = try await Harness.make()
        let token = try await accessToken(harness)
        _ = await harness.app.handle(me(token))
        #expect(try await harness.send("POST", "/auth/logout", token: token).status == 204)
        let inline = Reply(response: try #require(harness.app.answeredAtOnce(me(token))))
        let ordinary = Reply(response: await harness.app.handle(me(token)))
        #expect(inline.status == 401)
        #expect(inline.code == "session_revoked")
        #expect(inline.text == ordinary.text)
        #expect(inline.header("Content-Type") == "application/problem+json")
    }

    @Test("an expired token is not taken from the cache: the waiting check says token_expired")
    func expiredTokenLeavesCache() async throws {
        let harness = try await Harness.make()
        let token = try await accessToken(harness)
        _ = await harness.app.handle(me(token))
        harness.clock.advance(TimeInterval(900 + TokenService.clockSkew + 1))
        #expect(harness.app.answeredAtOnce(me(token)) == nil)
        #expect(Reply(response: await harness.app.handle(me(token))).code == "token_expired")
    }

    @Test("the per-address limit is counted once a request, answered at once or not")
    func addressLimitCounted() async throws {
        // Sign-up, verify, login and the first /auth/me use 4 of the 6 allowed in the minute.
        let harness = try await Harness.make { $0.ipRateLimit = 6 }
        let token = try await accessToken(harness)
        #expect(await harness.app.handle(me(token)).status == 200)
        #expect(try #require(harness.app.answeredAtOnce(me(token))).status == 200)
        #expect(try #require(harness.app.answeredAtOnce(me(token))).status == 200)
        let limited = Reply(response: try #require(harness.app.answeredAtOnce(me(token))))
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") != nil)
        #expect(await harness.app.handle(me(token)).status == 429)
    }

    @Test("with per-address counts in the database, /auth/me always waits for the count")
    func sharedLimitStepsAside() async throws {
        let harness = try await Harness.make { $0.ipRateLimit = 100; $0.addressLimitShared = true }
        let token = try await accessToken(harness)
        #expect(await harness.app.handle(me(token)).status == 200)
        #expect(harness.app.answeredAtOnce(me(token)) == nil)
    }
}
