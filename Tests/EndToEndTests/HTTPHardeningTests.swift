import AccountAPI
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP rules of issue 11 against the real binary, over raw sockets: one address cannot hold
/// the server, a head has a total deadline, framing is strict and every refusal is one
/// problem+json reply, paths are exact, limits answer at once, and `X-Forwarded-For` is read whole.
/// Linux routes all of 127/8 to loopback, so 127.0.0.2 is another client of a server on 127.0.0.1.
@Suite struct HTTPHardeningTests {
    private static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// One problem+json reply from the app's renderer (request id, texts, common headers), then
    /// the connection closed.
    private static func expectRefused(
        _ conversation: RawConversation, _ status: Int, _ code: ErrorCode, underAuth: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(conversation.replies.count == 1, "\(conversation.text.prefix(600))", sourceLocation: sourceLocation)
        #expect(conversation.statusLines == 1, "\(conversation.text.prefix(600))", sourceLocation: sourceLocation)
        #expect(conversation.closed, "the connection stayed open", sourceLocation: sourceLocation)
        guard let reply = conversation.replies.first else { return }
        ErrorReplyTests.expectProblem(reply, status, code, underAuth: underAuth, sourceLocation: sourceLocation)
        #expect(reply.header("Connection") == "close", sourceLocation: sourceLocation)
    }

    // MARK: connections

    @Test func aFloodOfHalfSentRequestsFromOneAddressDoesNotStopTheServerAnsweringAnother() async throws {
        RawHTTP.raiseDescriptorLimit()
        // A head deadline far beyond the test: opening 4,600 connections on a loaded machine may
        // take longer than the default 10 s, and the 64 kept ones must not time out meanwhile.
        let server = try await ServerProcess.start(["--header-timeout", "300"])
        var held = try await RawHTTP.holdHalfSent(port: server.port, count: 4600, source: "127.0.0.1")
        defer { RawHTTP.closeAll(held) }  // once: a descriptor closed twice may by then be another test's
        try await Task.sleep(for: .milliseconds(300))
        #expect(RawHTTP.stillOpen(held) == 64, "the default cap is 64 connections per address")
        let (reply, elapsed) = try await RawHTTP.timedExchange(port: server.port, source: "127.0.0.2", Self.healthz)
        #expect(reply.status == 200)
        #expect(elapsed < .seconds(5), "answered after \(elapsed): it waited behind the flood")
        // The flooding address itself is refused at once, not left waiting.
        let more = try await RawHTTP.converse(port: server.port, Self.healthz, source: "127.0.0.1", wait: 5)
        #expect(more.replies.isEmpty && more.closed)
        RawHTTP.closeAll(held)
        held = []
        #expect(try await server.client.send("GET", "/healthz").status == 200)
        await server.stop()
    }

    @Test func theCapIsAnOptionWithAnEnvironmentTwinAndATrustedProxyIsNotCapped() async throws {
        let server = try await ServerProcess.start(["--max-connections-per-address", "5", "--trusted-proxy", "127.0.0.3"])
        let five = try await RawHTTP.holdHalfSent(port: server.port, count: 5, source: "127.0.0.1")
        defer { RawHTTP.closeAll(five) }
        let sixth = try await RawHTTP.converse(port: server.port, Self.healthz, source: "127.0.0.1", wait: 5)
        #expect(sixth.replies.isEmpty && sixth.closed)
        #expect(try await RawHTTP.converse(port: server.port, Self.healthz, source: "127.0.0.2").replies.map(\.status) == [200])
        let proxy = try await RawHTTP.holdHalfSent(port: server.port, count: 20, source: "127.0.0.3")
        defer { RawHTTP.closeAll(proxy) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(RawHTTP.stillOpen(proxy) == 20, "a balancer carries many clients")
        await server.stop()

        let twin = try await ServerProcess.start(environment: ["ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS": "3"])
        let three = try await RawHTTP.holdHalfSent(port: twin.port, count: 3, source: "127.0.0.1")
        let fourth = try await RawHTTP.converse(port: twin.port, Self.healthz, source: "127.0.0.1", wait: 5)
        #expect(fourth.replies.isEmpty && fourth.closed, "ACCOUNT_MAX_CONNECTIONS_PER_ADDRESS=3")
        RawHTTP.closeAll(three)
        await twin.stop()

        let (_, help, _) = try await runServerCommand(["--help"])
        #expect(help.contains("--max-connections-per-address") && help.contains("--header-timeout"))
    }

    @Test func aHeadTrickledSlowerThanItsDeadlineGets408ThoughEveryByteComesInTime() async throws {
        let server = try await ServerProcess.start(["--header-timeout", "1"])
        let outcome = try await RawHTTP.trickle(
            port: server.port, after: "GET /auth/policy HTTP/1.1\r\nHost: x\r\n", String(repeating: "X-Slow: a\r\n", count: 30),
            every: .milliseconds(100))
        #expect(outcome.reply?.status == 408, "\(outcome.text)")
        #expect(outcome.reply?.problem?.code == .requestTimeout)
        #expect(outcome.reply?.header("Cache-Control") == "no-store")
        #expect(outcome.elapsed < .seconds(8), "the trickle went on for \(outcome.elapsed)")
        await server.stop()
    }

    // MARK: framing

    static let smuggled = "GET /auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x\r\n\r\n"

    @Test(arguments: [
        "Content-Length: 0\r\nContent-Length: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count)\r\nContent-Length: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count), \(smuggled.utf8.count)",
        "Transfer-Encoding: chunked\r\nContent-Length: \(smuggled.utf8.count)",
    ])
    func twoFramingsGetOne400AndTheBodyIsNeverASecondRequest(_ framing: String) async throws {
        let server = try await ServerProcess.start()
        let conversation = try await RawHTTP.converse(
            port: server.port,
            "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(framing)\r\n\r\n" + Self.smuggled)
        Self.expectRefused(conversation, 400, .invalidRequest)
        #expect(conversation.statusLines == 1 && !conversation.text.contains("HTTP/1.1 401"), "the smuggled request was answered")
        await server.stop()
    }

    @Test(arguments: ["-1", "+5", "0x10", "99999999999999999999", "1 2", "1,2", "", "1.0", "٣"])
    func aBadContentLengthIsOneProblemReplyInTheClientsLanguage(_ value: String) async throws {
        let server = try await ServerProcess.start()
        let conversation = try await RawHTTP.converse(
            port: server.port,
            "POST /auth/login HTTP/1.1\r\nHost: x\r\nAccept-Language: ko\r\nX-Request-Id: bad-length\r\nContent-Length: \(value)\r\n\r\n{}")
        Self.expectRefused(conversation, 400, .invalidRequest)
        #expect(conversation.replies.first?.header("X-Request-Id") == "bad-length")
        #expect(conversation.replies.first?.problem?.detail?.contains("Content-Length") == true)
        let korean = conversation.replies.first?.text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
        #expect(korean == true, "Accept-Language: ko, got \(conversation.text)")
        await server.stop()
    }

    @Test(arguments: [
        "GET /auth/policy HTTP/1.1\r\n\r\n",  // no Host
        "GET /auth/policy HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nAuthorization\t: Bearer x\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Test: a\u{0}b\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Test: a\rb\r\n\r\n",
        "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Test: a\r\n b\r\n\r\n",
        "GET /auth/policy HTTP/1.1\nHost: x\n\n",
    ])
    func malformedHeadsGet400AndTheConnectionIsClosed(_ request: String) async throws {
        let server = try await ServerProcess.start()
        Self.expectRefused(try await RawHTTP.converse(port: server.port, request), 400, .invalidRequest)
        await server.stop()
    }

    // MARK: paths

    @Test(arguments: ["/auth/me%00x", "/auth/me%0Ax", "/auth/me%7F", "/auth/policy?x=%00", "/auth/me%zz"])
    func controlCharactersInThePathAre400(_ target: String) async throws {
        let server = try await ServerProcess.start()
        let (_, tokens) = try await server.verifiedAccount("ctl")
        let conversation = try await RawHTTP.converse(
            port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(tokens.access)\r\n\r\n")
        Self.expectRefused(conversation, 400, .invalidRequest)
        await server.stop()
    }

    @Test func pathsNotInNormalFormAre404OnEveryRouteIncludingTheFastOne() async throws {
        let server = try await ServerProcess.start()
        let (_, tokens) = try await server.verifiedAccount("paths")
        let sessions = try await server.client.send("GET", "/auth/sessions", token: tokens.access)
        let sessionID = try #require((sessions.object?["sessions"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(try await server.me(tokens.access).status == 200)
        for (method, path) in [
            ("GET", "//auth/me"), ("GET", "/auth//me"), ("GET", "/./auth/me"), ("GET", "/auth/./me"), ("GET", "/auth/../auth/me"),
            ("GET", "/auth/%2e%2e/auth/me"), ("GET", "/auth/me//"), ("GET", "//healthz"), ("GET", "//auth/policy"),
            ("GET", "//auth/sessions"), ("DELETE", "//auth/sessions/\(sessionID)"), ("DELETE", "/auth/sessions/./\(sessionID)"),
        ] {
            // Raw: URLSession would read `//auth/me` as a host name.
            let conversation = try await RawHTTP.converse(
                port: server.port,
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(tokens.access)\r\nConnection: close\r\n\r\n")
            let reply = conversation.replies.first
            #expect(reply?.status == 404 && reply?.problem?.code == .notFound, "\(method) \(path): \(conversation.text)")
        }
        // Nothing was revoked by the odd spellings; the exact ones still work, trailing slash too.
        #expect(try await server.me(tokens.access).status == 200)
        #expect(try await server.client.send("GET", "/auth/me/", token: tokens.access).status == 200)
        #expect(try await server.client.send("GET", "/healthz/").status == 200)
        await server.stop()
    }

    // MARK: limits

    @Test func aLongQueryOrLineIs414AndTooManyHeadersAre431AtOnce() async throws {
        let server = try await ServerProcess.start()
        let query = (0..<600).map { "a\($0)=1" }.joined(separator: "&")
        Self.expectRefused(
            try await RawHTTP.converse(port: server.port, "GET /auth/policy?\(query) HTTP/1.1\r\nHost: x\r\n\r\n", wait: 5), 414, .uriTooLong)
        Self.expectRefused(
            try await RawHTTP.converse(port: server.port, "GET /auth/" + String(repeating: "p", count: 10_000), wait: 5), 414, .uriTooLong,
            underAuth: false)
        let headers = (0..<150).map { "X-H\($0): v\r\n" }.joined()
        Self.expectRefused(
            try await RawHTTP.converse(port: server.port, "GET /auth/policy HTTP/1.1\r\nHost: x\r\n\(headers)\r\n", wait: 5), 431,
            .headerFieldsTooLarge, underAuth: false)
        Self.expectRefused(
            try await RawHTTP.converse(
                port: server.port, "GET /auth/policy HTTP/1.1\r\nHost: x\r\nCookie: " + String(repeating: "c", count: 40_000), wait: 5),
            431, .headerFieldsTooLarge, underAuth: false)
        #expect(try await server.client.send("GET", "/auth/policy?scope=x").status == 200)
        await server.stop()
    }

    // MARK: X-Forwarded-For

    @Test func everyForwardedForLineCountsSoAClientCannotPickItsAddress() async throws {
        let server = try await ServerProcess.start(["--ip-rate-limit", "3", "--trusted-proxy", "127.0.0.1"])
        // The client sends a line of its own; the proxy appends the address it saw as another line.
        for index in 0..<3 {
            let conversation = try await RawHTTP.converse(
                port: server.port,
                "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.\(index)\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n")
            #expect(conversation.replies.map(\.status) == [200], "\(index)")
        }
        let limited = try await RawHTTP.converse(
            port: server.port,
            "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.99\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n")
        #expect(limited.replies.map(\.status) == [429], "the fourth request from 203.0.113.7")
        let other = try await RawHTTP.converse(
            port: server.port,
            "GET /auth/policy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.1\r\nx-forwarded-for: 203.0.113.8, 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(other.replies.map(\.status) == [200], "another client behind the proxy")
        await server.stop()
        #expect(server.logs.contains(#""client":"203.0.113.7""#))
        #expect(!server.logs.contains(#""client":"10.9.9."#))
    }
}
