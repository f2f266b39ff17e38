import Foundation
import TestSupport
import HTTPServer
import Testing

/// A path or query reaches a handler exactly as the client meant it, or not at all: control
/// characters (raw or percent-encoded) and malformed percent-encodings are `400`, never decoded
/// into something a C string or a log line would read differently (`/auth/me%00x` is not `/auth/me`).
@Suite struct RequestTargetTests {
    private static func echo() throws -> HTTPServer {
        try startServer { request in
            text(200, request.path + "|" + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
        }
    }

    static let controlCharacters: [String] = (Array(0x00...0x1F) + [0x7F]).map { String(format: "%%%02X", $0) }

    @Test(arguments: controlCharacters + ["%0a", "%7f", "%2500%00"])
    func aPercentEncodedControlCharacterInThePathIsRefused(_ encoded: String) async throws {
        let server = try Self.echo()
        let conversation = try await RawHTTP.converse(
            port: server.port, "GET /auth/me\(encoded)x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(conversation.replies.map(\.status) == [400], "\(encoded): \(conversation.text)")
        #expect(conversation.closed)
        await server.shutdown()
    }

    @Test(arguments: [UInt8](0x00...0x1F).filter { $0 != 0x0A && $0 != 0x0D } + [0x7F, 0x80, 0xFF])
    func aRawControlOrNonASCIIByteInTheTargetIsRefused(_ byte: UInt8) async throws {
        let server = try Self.echo()
        let request = Array("GET /auth/me".utf8) + [byte] + Array("x HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let conversation = try await RawHTTP.converse(port: server.port, request)
        #expect(conversation.replies.map(\.status) == [400], "byte \(byte): \(conversation.text)")
        await server.shutdown()
    }

    @Test(arguments: [
        "/a?q=%00", "/a?q%01=1", "/a?q=%0D%0A", "/a?q=%7F", "/a%zz", "/a%4", "/a%", "/a?q=%g0", "/a#frag", "/a?q=1#frag",
        "a", "auth/me", "http:/a", "ftp://host/a",
    ])
    func malformedTargetsAreRefused(_ target: String) async throws {
        let server = try Self.echo()
        let conversation = try await RawHTTP.converse(port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(conversation.replies.map(\.status) == [400], "\(target): \(conversation.text)")
        await server.shutdown()
    }

    @Test(arguments: [
        ("/auth/me", "/auth/me|"),
        ("/auth/me/?q=a%20b&n=7&q=second", "/auth/me/|n=7&q=a b"),
        ("/a+b?x=a+b&y=%2B", "/a+b|x=a b&y=+"),
        ("/%ED%95%9C?name=%ED%95%9C", "/한|name=한"),
        ("/auth%2Fme", "/auth/me|"),
        ("/a?&&x=1&&", "/a|x=1"),
        ("/a?flag", "/a|flag="),
        ("http://example.com/auth/me?x=1", "/auth/me|x=1"),
        ("HTTPS://example.com", "/|"),
        ("*", "*|"),
    ])
    func wellFormedTargetsAreDecoded(_ target: String, _ expected: String) async throws {
        let server = try Self.echo()
        let conversation = try await RawHTTP.converse(
            port: server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try conversation.single().text == expected)
        await server.shutdown()
    }
}
