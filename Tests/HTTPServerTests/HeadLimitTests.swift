import Foundation
import TestSupport
import HTTPServer
import Testing

/// A request line, query or header block past its limit is answered at once (`414`, `431`),
/// without waiting for the rest of the head or for a timeout.
@Suite struct HeadLimitTests {
    private static func server() throws -> HTTPServer {
        try startServer { request in text(200, request.path) }
    }

    private static func expect(
        _ conversation: RawConversation, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(conversation.replies.map(\.status) == [status], "\(conversation.text.prefix(300))", sourceLocation: sourceLocation)
        #expect(conversation.replies.first?.text.contains(#""code":"\#(code)""#) == true, sourceLocation: sourceLocation)
        #expect(conversation.closed, sourceLocation: sourceLocation)
    }

    @Test(arguments: [101, 600, 5000])
    func tooManyQueryParametersAre414(_ count: Int) async throws {
        let server = try Self.server()
        let query = (0..<count).map { "a\($0)=1" }.joined(separator: "&")
        let request = "GET /auth/policy?\(query) HTTP/1.1\r\nHost: x\r\n\r\n"
        // Over the line limit too at 5,000: refused as soon as the line is too long, either way 414.
        Self.expect(try await RawHTTP.converse(port: server.port, request, wait: 10), 414, "uri_too_long")
        await server.shutdown()
    }

    @Test func aHundredQueryParametersAreServed() async throws {
        let server = try Self.server()
        let query = (0..<100).map { "a\($0)=1" }.joined(separator: "&")
        let conversation = try await RawHTTP.converse(
            port: server.port, "GET /ok?\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(conversation.replies.map(\.status) == [200])
        await server.shutdown()
    }

    @Test func aRequestLineOverTheLimitIs414BeforeItEnds() async throws {
        let server = try Self.server()
        // No line end at all: the reply must not wait for one.
        let conversation = try await RawHTTP.converse(
            port: server.port, "GET /" + String(repeating: "a", count: 9000), wait: 10)
        Self.expect(conversation, 414, "uri_too_long")
        await server.shutdown()
    }

    @Test func tooManyHeaderLinesAre431() async throws {
        let server = try Self.server()
        let headers = (0..<101).map { "X-H\($0): v\r\n" }.joined()
        Self.expect(try await RawHTTP.converse(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\(headers)\r\n"), 431, "header_fields_too_large")
        await server.shutdown()
    }

    @Test func tooManyHeaderBytesAre431BeforeTheHeadEnds() async throws {
        let server = try Self.server()
        let conversation = try await RawHTTP.converse(
            port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 20000), wait: 10)
        Self.expect(conversation, 431, "header_fields_too_large")
        await server.shutdown()
    }

    @Test func limitsAreConfigurable() async throws {
        let server = try startServer(configure: {
            $0.maxRequestLineLength = 64
            $0.maxHeaderCount = 2
            $0.maxQueryParameters = 1
        }) { _ in text(200, "ok") }
        let port = server.port
        Self.expect(try await RawHTTP.converse(port: port, "GET /\(String(repeating: "a", count: 70)) HTTP/1.1\r\nHost: x\r\n\r\n"), 414, "uri_too_long")
        Self.expect(try await RawHTTP.converse(port: port, "GET /?a=1&b=2 HTTP/1.1\r\nHost: x\r\n\r\n"), 414, "uri_too_long")
        Self.expect(try await RawHTTP.converse(port: port, "GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n"), 431, "header_fields_too_large")
        let fits = try await RawHTTP.converse(port: port, "GET /?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(fits.replies.map(\.status) == [200])
        await server.shutdown()
    }
}
