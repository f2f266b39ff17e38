import Foundation
import TestSupport
import HTTPServer
import Testing

/// One client address cannot hold the server: it gets at most `maxConnectionsPerAddress`
/// connections, connections over any limit are closed at once instead of waiting in the listen
/// backlog, and a reserve keeps room for addresses that hold few. Linux routes all of 127/8 to
/// loopback, so 127.0.0.2 and 127.0.0.3 are other clients of a server on 127.0.0.1.
@Suite(.serialized) struct ConnectionCapTests {
    private static let healthz = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    @Test func aFloodOfHalfSentRequestsFromOneAddressLeavesTheServerAnsweringAnother() async throws {
        let server = try startServer(fastHandler: { _ in text(200, "ok") }) { _ in text(200, "ok") }
        let held = try await RawHTTP.holdHalfSent(port: server.port, count: 4600, source: "127.0.0.1")
        defer { RawHTTP.closeAll(held) }
        // The default cap: 64 kept, the rest closed at once by the server.
        try await Task.sleep(for: .milliseconds(300))
        #expect(RawHTTP.stillOpen(held) == 64)
        let (reply, elapsed) = try await RawHTTP.timedExchange(port: server.port, source: "127.0.0.2", Self.healthz)
        #expect(reply.status == 200)
        #expect(elapsed < .seconds(1), "answered after \(elapsed)")
        await server.shutdown()
    }

    @Test func anAddressOverItsCapIsClosedAtOnceAndGetsInAgainWhenItHoldsFewer() async throws {
        let server = try startServer(configure: { $0.maxConnectionsPerAddress = 8 }) { _ in text(200, "ok") }
        let port = server.port
        let held = try await RawHTTP.holdHalfSent(port: port, count: 8, source: "127.0.0.1")
        #expect(held.count == 8)
        try await Task.sleep(for: .milliseconds(100))
        #expect(RawHTTP.stillOpen(held) == 8)
        // Reset at once: the reset can even reach the client before its `connect` returns.
        if let over = try? await RawHTTP.converse(port: port, Self.healthz, source: "127.0.0.1", wait: 5) {
            #expect(over.replies.isEmpty && over.closed, "\(over.text)")
        }
        let other = try await RawHTTP.converse(port: port, Self.healthz, source: "127.0.0.2")
        #expect(other.replies.map(\.status) == [200])
        RawHTTP.closeAll(held)
        try await Task.sleep(for: .milliseconds(200))
        let again = try await RawHTTP.converse(port: port, Self.healthz, source: "127.0.0.1")
        #expect(again.replies.map(\.status) == [200])
        await server.shutdown()
    }

    @Test func anUncappedPeerMayHoldMore() async throws {
        let server = try startServer(configure: {
            $0.maxConnectionsPerAddress = 4
            $0.uncappedAddresses = ["127.0.0.3"]
        }) { _ in text(200, "ok") }
        let held = try await RawHTTP.holdHalfSent(port: server.port, count: 20, source: "127.0.0.3")
        defer { RawHTTP.closeAll(held) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(RawHTTP.stillOpen(held) == 20)
        await server.shutdown()
    }

    @Test func overTheConnectionLimitTheReserveStillLetsANewcomerIn() async throws {
        // No per-address cap: one address fills the limit but for the reserve (32 / 16 = 2).
        let server = try startServer(configure: {
            $0.connectionLimit = 32
            $0.maxConnectionsPerAddress = 0
        }) { _ in text(200, "ok") }
        let port = server.port
        let flood = try await RawHTTP.holdHalfSent(port: port, count: 60, source: "127.0.0.1")
        defer { RawHTTP.closeAll(flood) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(RawHTTP.stillOpen(flood) == 30)
        let (reply, elapsed) = try await RawHTTP.timedExchange(port: port, source: "127.0.0.2", Self.healthz)
        #expect(reply.status == 200)
        #expect(elapsed < .seconds(1), "answered after \(elapsed)")
        try await Task.sleep(for: .milliseconds(200))
        // Another newcomer takes the two reserved places; then a further connection is closed at
        // once instead of waiting in the backlog.
        let newcomer = try await RawHTTP.holdHalfSent(port: port, count: 2, source: "127.0.0.3")
        defer { RawHTTP.closeAll(newcomer) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(RawHTTP.stillOpen(newcomer) == 2)
        let started = ContinuousClock.now
        let full = try await RawHTTP.converse(port: port, Self.healthz, source: "127.0.0.4", wait: 10)
        #expect(full.replies.isEmpty && full.closed, "\(full.text)")
        #expect(ContinuousClock.now - started < .seconds(5))
        await server.shutdown()
    }
}
