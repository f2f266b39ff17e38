import Foundation
import TestSupport
import HTTPServer
import Synchronization
import Testing

/// Bodies sent with `Transfer-Encoding` are refused with 411 before any of them is read: the API's
/// clients send `Content-Length`, and RFC 9112 §6.3 lets a server require it.
@Suite struct ChunkedUploadTests {
    private static let chunkedHead =
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test func chunkedBodyGetsLengthRequiredWithoutReachingTheHandler() async throws {
        let calls = Counter()
        let server = try startServer { _ in
            calls.increment()
            return text(200, "handled")
        }
        let chunk = "3e8\r\n" + String(repeating: "a", count: 1000) + "\r\n"
        let answer = try await RawHTTP.refusedUpload(
            port: server.port, head: Self.chunkedHead,
            body: Array((String(repeating: chunk, count: 3) + "0\r\n\r\n").utf8))
        #expect(answer.status == 411)
        #expect(answer.header("Content-Type") == "application/problem+json")
        #expect(answer.text.contains(#""code":"length_required""#))
        #expect(calls.value == 0)
        await server.shutdown()
    }

    @Test(arguments: [20_000, 100_000, 1_000_000])
    func hugeChunkExtensionIsAClientErrorAndTheServerKeepsServing(extensionLength: Int) async throws {
        let server = try startServer { _ in text(200, "handled") }
        let body = Array("2;ext=".utf8) + [UInt8](repeating: 65, count: extensionLength)
            + Array("\r\n{}\r\n0\r\n\r\n".utf8)
        let answer = try await RawHTTP.refusedUpload(port: server.port, head: Self.chunkedHead, body: body)
        #expect((400..<500).contains(answer.status), "got \(answer.status)")
        let after = try await RawHTTP.exchange(
            port: server.port, ["GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(after.status == 200)
        #expect(after.text == "handled")
        await server.shutdown()
    }

    @Test func customRefusalReplyIsUsed() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0),
            refused: { request, refusal in text(refusal.status, "need a length for \(request.path)") },
            handler: { _ in text(200, "handled") })
        try server.start()
        let answer = try await RawHTTP.exchange(port: server.port, [Self.chunkedHead, "2\r\n{}\r\n0\r\n\r\n"])
        #expect(answer.status == 411)
        #expect(answer.text == "need a length for /upload")
        await server.shutdown()
    }
}

/// A thread-safe call counter for handlers.
private final class Counter: Sendable {
    private let count = Atomic(0)

    var value: Int { count.load(ordering: .sequentiallyConsistent) }

    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}
