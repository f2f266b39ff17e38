import Foundation
import TestSupport
import HTTPServer
import Testing

@Suite struct BodyLimitTests {
    @Test func declaredContentLengthOverLimitIsRefusedBeforeTheBodyIsSent() async throws {
        let server = try startServer(maxBodySize: 1024) { _ in text(200, "handled") }
        // Only the head is sent: the answer must come without the server waiting for the body.
        let answer = try await RawHTTP.exchange(port: server.port, [
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n",
        ])
        #expect(answer.status == 413)
        #expect(answer.text == "too large")
        #expect(answer.header("X-Path") == "/upload")
        await server.shutdown()
    }

    @Test func bodyExactlyAtLimitIsAccepted() async throws {
        let server = try startServer(maxBodySize: 1024) { request in text(200, "\(request.body.count)") }
        let exact = try await fetch(server.port, "/", method: "POST", body: Data(count: 1024))
        #expect(exact.status == 200)
        #expect(exact.text == "1024")
        await server.shutdown()
    }
}
