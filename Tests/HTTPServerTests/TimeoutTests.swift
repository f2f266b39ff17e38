import Foundation
import TestSupport
import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A request head has a total deadline from its first byte; bytes trickled in do not extend it
/// (slowloris). A keep-alive connection between requests has the longer idle timeout instead.
@Suite struct TimeoutTests {
    @Test func aHeadTrickledInByteByByteGets408AtItsDeadline() async throws {
        let server = try startServer(configure: { $0.headerTimeout = 1 }) { _ in text(200, "ok") }
        let port = server.port
        // One byte every 100 ms, far inside any inactivity timeout, and a head that would take 20 s.
        let outcome = try await onThread { () -> (reply: String, seconds: Double) in
            let socket = try RawHTTP.connect(port: port, receiveTimeout: 1)
            defer { close(socket) }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let head = Array(("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Slow: a\r\n", count: 20)).utf8)
            let started = ContinuousClock.now
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            for byte in head {
                guard (try? RawHTTP.send(socket, [byte])) != nil else { break }
                let n = recv(socket, &buffer, buffer.count, 0)
                if n > 0 { received += buffer[..<n] }
                if n == 0 { break }
            }
            let elapsed = ContinuousClock.now - started
            return (String(decoding: received, as: UTF8.self), Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        #expect(outcome.reply.hasPrefix("HTTP/1.1 408 "), "\(outcome.reply)")
        #expect(outcome.reply.contains(#""code":"request_timeout""#))
        #expect(outcome.seconds < 10, "the trickle went on for \(outcome.seconds) s")
        await server.shutdown()
    }

    @Test func aConnectionThatSendsNothingIsClosedAtTheHeaderDeadline() async throws {
        let server = try startServer(configure: { $0.headerTimeout = 1 }) { _ in text(200, "ok") }
        let conversation = try await RawHTTP.converse(port: server.port, [], wait: 10)
        #expect(conversation.closed)
        #expect(conversation.replies.isEmpty)
        await server.shutdown()
    }

    @Test func aBodyThatStopsComingGets408() async throws {
        let server = try startServer(configure: { $0.connectionTimeout = 1 }) { _ in text(200, "ok") }
        let conversation = try await RawHTTP.converse(
            port: server.port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345", wait: 10)
        #expect(conversation.replies.map(\.status) == [408], "\(conversation.text)")
        #expect(conversation.closed)
        await server.shutdown()
    }

    @Test func anIdleKeepAliveConnectionOutlivesTheHeaderDeadlineThenCloses() async throws {
        let server = try startServer(configure: {
            $0.headerTimeout = 1
            $0.connectionTimeout = 3
        }) { request in text(200, request.path) }
        let port = server.port
        let outcome = try await onThread { () -> (first: Int, second: Int, closedAfter: Bool) in
            let socket = try RawHTTP.connect(port: port, receiveTimeout: 10)
            defer { close(socket) }
            var pending: [UInt8] = []
            try RawHTTP.send(socket, Array("GET /one HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let first = try RawHTTP.readReply(socket, &pending).status
            Thread.sleep(forTimeInterval: 1.6)  // past the header deadline, inside the idle timeout
            try RawHTTP.send(socket, Array("GET /two HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let second = try RawHTTP.readReply(socket, &pending).status
            var byte: UInt8 = 0
            let n = recv(socket, &byte, 1, 0)  // waits for the idle timeout (3 s) to close it
            return (first, second, n == 0)
        }
        #expect(outcome.first == 200)
        #expect(outcome.second == 200)
        #expect(outcome.closedAfter)
        await server.shutdown()
    }
}
