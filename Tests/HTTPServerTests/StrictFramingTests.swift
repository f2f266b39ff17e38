import Foundation
import TestSupport
import HTTPServer
import Synchronization
import Testing

/// RFC 9112 §5, §6.3 and RFC 9110 §5.5 held strictly: a head that two parsers could read two
/// ways is refused with one `400` and the connection is closed, so nothing after it (a smuggled
/// second request) is ever read as a request.
@Suite struct StrictFramingTests {
    /// A server whose handler records each path it is given and answers it.
    private static func server(_ seen: PathLog) throws -> HTTPServer {
        try startServer { request in
            seen.record(request.path)
            return text(200, request.path)
        }
    }

    /// Expects exactly one problem+json reply with `status`, `code` and `message` (the same words
    /// as `detail`), then the connection closed.
    private static func expectRefused(
        _ conversation: RawConversation, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(conversation.replies.count == 1, "replies: \(conversation.text)", sourceLocation: sourceLocation)
        #expect(conversation.replies.first?.status == status, "\(conversation.text)", sourceLocation: sourceLocation)
        #expect(conversation.replies.first?.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(conversation.replies.first?.text.contains(#""code":"\#(code)""#) == true, sourceLocation: sourceLocation)
        let body = conversation.replies.first?.object
        #expect((body?["message"] as? String)?.isEmpty == false, "\(conversation.text)", sourceLocation: sourceLocation)
        #expect(body?["message"] as? String == body?["detail"] as? String, sourceLocation: sourceLocation)
        #expect(conversation.replies.first?.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(conversation.closed, "the connection stayed open", sourceLocation: sourceLocation)
    }

    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test(arguments: [
        "Content-Length: 0\r\nContent-Length: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count)\r\nContent-Length: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count), \(smuggled.utf8.count)",
        "content-length: 0\r\nCONTENT-LENGTH: \(smuggled.utf8.count)",
        "Content-Length: \(smuggled.utf8.count)\r\nTransfer-Encoding: chunked",
        "Transfer-Encoding: chunked\r\nContent-Length: 0",
    ])
    func severalFramingsAreRefusedAndTheBodyIsNeverReadAsARequest(_ framing: String) async throws {
        let seen = PathLog()
        let server = try Self.server(seen)
        let conversation = try await RawHTTP.converse(
            port: server.port, "POST /upload HTTP/1.1\r\nHost: x\r\n\(framing)\r\n\r\n" + Self.smuggled)
        Self.expectRefused(conversation, 400, "invalid_request")
        #expect(seen.paths.isEmpty, "the handler got \(seen.paths)")
        await server.shutdown()
    }

    @Test(arguments: ["-1", "+5", "-0", "0x10", "1e3", "5 5", "5,5", "5;5", "\t", "99999999999999999999", "18446744073709551616", "５"])
    func aContentLengthThatIsNotAPlainNumberIsOneProblemReply(_ value: String) async throws {
        let seen = PathLog()
        let server = try Self.server(seen)
        let conversation = try await RawHTTP.converse(
            port: server.port, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n12345")
        Self.expectRefused(conversation, 400, "invalid_request")
        // One status line only: no second header block (libmicrohttpd 0.9.75 wrote its own twice).
        #expect(conversation.text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.") }.count == 1, "\(conversation.text)")
        #expect(seen.paths.isEmpty)
        await server.shutdown()
    }

    @Test(arguments: [
        "Host : x", "Host\t: x", "X-Test : 1", "Content-Length : 5",
        " X-Folded: 1", "X-Test: 1\r\n folded", "X-Test: 1\r\n\tfolded",
        "NoColon", ": no-name", "X Test: 1", "X-Test\u{1}: 1",
        "X-Test: a\u{0}b", "X-Test: a\rb", "X-Test: a\u{1}b", "X-Test: a\u{1F}b", "X-Test: a\u{7F}b", "X-Test: \u{0}",
        // Long values are checked eight bytes at a time: a bad byte in any place of a word.
        "X-Test: 0123456789abcdef\u{1}ghij", "X-Test: 0123456789abcde\u{7F}", "X-Test: 01234567\u{0}9abcdef01234567",
        "X-Test: \t0123456789\t\u{1F}", "Authorization: Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiIxIn0\u{1B}.sig",
    ])
    func aBadHeaderLineIsRefused(_ line: String) async throws {
        let seen = PathLog()
        let server = try Self.server(seen)
        let conversation = try await RawHTTP.converse(port: server.port, "GET /page HTTP/1.1\r\nHost: x\r\n\(line)\r\n\r\n")
        Self.expectRefused(conversation, 400, "invalid_request")
        #expect(seen.paths.isEmpty)
        await server.shutdown()
    }

    @Test(arguments: [
        "GET /page HTTP/1.1\r\n\r\n",  // HTTP/1.1 without Host
        "GET /page HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /page HTTP/1.1\r\nHost: x\r\nhost: x\r\n\r\n",
        "GET /page HTTP/1.1\r\nHost: a/b\r\n\r\n",
        "GET /page HTTP/1.1\r\nHost: a b\r\n\r\n",
        "GET /page HTTP/1.1\r\nHost: user@a\r\n\r\n",
        "GET /page HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n",
    ])
    func hostMustBeThereOnceAndValid(_ request: String) async throws {
        let seen = PathLog()
        let server = try Self.server(seen)
        Self.expectRefused(try await RawHTTP.converse(port: server.port, request), 400, "invalid_request")
        #expect(seen.paths.isEmpty)
        await server.shutdown()
    }

    @Test func http10WithoutHostAndHTTP11WithAnEmptyOrPortedHostAreServed() async throws {
        let server = try Self.server(PathLog())
        for request in [
            "GET /a HTTP/1.0\r\n\r\n", "GET /a HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: [::1]:8000\r\nConnection: close\r\n\r\n",
        ] {
            let conversation = try await RawHTTP.converse(port: server.port, request)
            #expect(conversation.replies.map(\.status) == [200], "\(request): \(conversation.text)")
        }
        await server.shutdown()
    }

    @Test(arguments: [
        "GET /page HTTP/1.1\nHost: x\n\n",  // bare LF line endings
        "GET /page HTTP/1.1\r\nHost: x\n\r\n",
        "GET  /page HTTP/1.1\r\nHost: x\r\n\r\n",  // two spaces
        "GET /page  HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /page HTTP/1.1 \r\nHost: x\r\n\r\n",
        "GET /page\r\nHost: x\r\n\r\n",  // no version
        "GET /page HTTP/1.10\r\nHost: x\r\n\r\n",
        "GET /page http/1.1\r\nHost: x\r\n\r\n",
        "G(T /page HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /pa ge HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    func aBadRequestLineOrLineEndingIsRefused(_ request: String) async throws {
        let seen = PathLog()
        let server = try Self.server(seen)
        Self.expectRefused(try await RawHTTP.converse(port: server.port, request), 400, "invalid_request")
        #expect(seen.paths.isEmpty)
        await server.shutdown()
    }

    @Test func anotherMajorVersionIs505() async throws {
        let server = try Self.server(PathLog())
        Self.expectRefused(
            try await RawHTTP.converse(port: server.port, "GET /page HTTP/2.0\r\nHost: x\r\n\r\n"), 505, "version_not_supported")
        await server.shutdown()
    }

    @Test func wellFormedRequestsStillPipelineAndKeepTheConnection() async throws {
        let seen = PathLog()
        let server = try Self.server(seen)
        let conversation = try await RawHTTP.converse(
            port: server.port,
            "\r\nGET /one HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Blanks: \t a b \t\r\nX-Obs: caf\u{E9}\r\n"
                + "X-Long: a\tb c\td~e!f\u{E9}g\u{FF}h 0123456789abcdef \t \r\n\r\n"
                + "POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 007\r\n\r\nabcdefg"
                + "GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(conversation.replies.map(\.text) == ["/one", "/two", "/three"], "\(conversation.text)")
        #expect(seen.paths == ["/one", "/two", "/three"])
        await server.shutdown()
    }

    @Test func headerValuesKeepInnerBlanksAndLoseOuterOnes() async throws {
        let server = try startServer { request in
            text(200, request.headers.values("X-Forwarded-For").map { "[\($0)]" }.joined())
        }
        let conversation = try await RawHTTP.converse(
            port: server.port,
            "GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 1.1.1.1 \r\nX-Other: y\r\nx-forwarded-for:\t2.2.2.2, 3.3.3.3\r\nConnection: close\r\n\r\n")
        #expect(try conversation.single().text == "[1.1.1.1][2.2.2.2, 3.3.3.3]")
        await server.shutdown()
    }

    @Test func theRefusalHookGetsWhatWasUnderstoodOfTheRequest() async throws {
        let got = Seen<(HTTPRequest, HTTPRefusal)>()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0),
            refused: { request, refusal in
                got.set((request, refusal))
                return text(refusal.status, "refused")
            },
            handler: { _ in text(200, "handled") })
        try server.start()
        let conversation = try await RawHTTP.converse(
            port: server.port,
            "POST /auth/login?x=1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\r\nContent-Length: +1\r\n\r\n{}")
        #expect(try conversation.single().text == "refused")
        let (request, refusal) = try #require(got.value)
        #expect(refusal == .malformed(.contentLength))
        #expect(request.method == "POST")
        #expect(request.path == "/auth/login")
        #expect(request.headers["X-Request-Id"] == "abc")
        #expect(request.body.isEmpty)
        await server.shutdown()
    }
}

/// Paths a handler was given, from any thread.
final class PathLog: Sendable {
    private let recorded = Mutex<[String]>([])

    var paths: [String] { recorded.withLock { $0 } }

    func record(_ path: String) { recorded.withLock { $0.append(path) } }
}

/// A value set from one thread and read from another; `nil` until set.
final class Seen<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    var value: Value? { stored.withLock { $0 } }

    func set(_ value: Value) { stored.withLock { $0 = value } }
}
