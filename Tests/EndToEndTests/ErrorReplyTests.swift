import AccountAPI
import Foundation
import TestSupport
import Testing

/// Every kind of refusal over a real socket: status, problem body and the common headers, and
/// none of them creates an account.
@Suite struct ErrorReplyTests {
    /// The headers and body docs/API.md asks of every problem reply.
    static func expectProblem(
        _ reply: Reply, _ status: Int, _ code: ErrorCode, underAuth: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.header("Content-Type")?.hasPrefix(Problem.mediaType) == true, sourceLocation: sourceLocation)
        #expect(reply.problem?.code == code, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.problem?.status == status, sourceLocation: sourceLocation)
        #expect(reply.problem?.message?.isEmpty == false, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.problem?.message == reply.problem?.detail, sourceLocation: sourceLocation)
        #expect(reply.header("X-Request-Id")?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(reply.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
        if underAuth { #expect(reply.header("Cache-Control") == "no-store", sourceLocation: sourceLocation) }
        #expect(reply.header("Server") == nil, "Server: \(reply.header("Server") ?? "")", sourceLocation: sourceLocation)
    }

    @Test func refusalsAreProblemsWithTheCommonHeadersAndChangeNothing() async throws {
        let server = try await ServerProcess.start()
        let client = server.client
        let account = TestAccount("probe")
        let body = try AccountJSON.makeEncoder().encode(account.signUpRequest)

        Self.expectProblem(try await client.send("GET", "/nowhere"), 404, .notFound, underAuth: false)
        Self.expectProblem(try await client.send("GET", "/auth/nowhere"), 404, .notFound)

        let wrongMethod = try await client.send("GET", "/auth/signup")
        Self.expectProblem(wrongMethod, 405, .methodNotAllowed)
        #expect(wrongMethod.header("Allow")?.contains("POST") == true)
        let wrongOnMe = try await client.send("POST", "/auth/me", token: "x")
        Self.expectProblem(wrongOnMe, 405, .methodNotAllowed)
        #expect(Set((wrongOnMe.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }).isSuperset(of: ["GET", "PATCH"]))

        // A whole, valid sign-up, but not declared as JSON.
        Self.expectProblem(try await client.send("POST", "/auth/signup", body: body, contentType: "text/plain"), 415, .unsupportedMediaType)
        Self.expectProblem(try await client.send("POST", "/auth/signup", body: body, contentType: "application/x-www-form-urlencoded"), 415, .unsupportedMediaType)

        Self.expectProblem(try await client.send("POST", "/auth/signup", body: Data(#"{"username": "#.utf8), contentType: "application/json"), 400, .invalidRequest)
        Self.expectProblem(try await client.send("POST", "/auth/signup", body: Data("[1, 2]".utf8), contentType: "application/json"), 400, .invalidRequest)
        // Valid fields plus an ignored one holding a byte that is not UTF-8: a lossy decoder would sign up.
        var invalidUTF8 = [UInt8](body.dropLast())
        invalidUTF8 += Array(#","note":"caf"#.utf8) + [0xFF] + Array("\"}".utf8)
        Self.expectProblem(try await client.send("POST", "/auth/signup", body: Data(invalidUTF8), contentType: "application/json; charset=utf-8"), 400, .invalidRequest)

        let invalid = try await client.send("POST", "/auth/signup", json: ["username": account.username, "email": "no-at-sign", "password": "short", "mbti": "XXXX"])
        Self.expectProblem(invalid, 422, .validationFailed)
        let fields = invalid.problem?.errors ?? [:]
        #expect(fields["email"]?.map(\.code) == [.invalidFormat])
        #expect(fields["password"]?.contains { $0.code == .tooShort } == true)
        #expect(fields["mbti"]?.map(\.code) == [.invalidChoice])
        #expect(fields["email"]?.first?.message.isEmpty == false)

        // 413 from the declared length alone: the body is never sent.
        let tooLarge = try await RawHTTP.exchange(port: server.port, ["""
            POST /auth/signup HTTP/1.1\r
            Host: 127.0.0.1\r
            Content-Type: application/json\r
            Content-Length: 100000\r
            X-Request-Id: big-1\r
            \r

            """])
        Self.expectProblem(tooLarge, 413, .payloadTooLarge)
        #expect(tooLarge.header("X-Request-Id") == "big-1")

        // 411 for a chunked body, before any of it is read, in the client's language.
        let chunked = try await RawHTTP.exchange(port: server.port, ["""
            POST /auth/signup HTTP/1.1\r
            Host: 127.0.0.1\r
            Content-Type: application/json\r
            Transfer-Encoding: chunked\r
            Accept-Language: ko\r
            X-Request-Id: chunked-1\r
            \r

            """])
        Self.expectProblem(chunked, 411, .lengthRequired)
        #expect(chunked.header("X-Request-Id") == "chunked-1")
        #expect(chunked.text.contains("Content-Length 헤더"))

        let missing = try await client.send("GET", "/auth/me")
        Self.expectProblem(missing, 401, .tokenInvalid)
        #expect(missing.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        let garbage = try await client.send("GET", "/auth/me", token: "not.a.jwt")
        Self.expectProblem(garbage, 401, .tokenInvalid)
        #expect(garbage.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)

        // A sane request id is echoed on success too.
        let health = try await client.send("GET", "/healthz", headers: ["X-Request-Id": "probe-42"])
        #expect(health.status == 200 && health.header("X-Request-Id") == "probe-42")
        #expect(health.header("Server") == nil)

        // Nothing above created the account: its username and address are still free.
        try await server.signUp(account)
        await server.stop()
    }
}
