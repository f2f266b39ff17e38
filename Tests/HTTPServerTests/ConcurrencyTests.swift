import Foundation
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ConcurrencyTests {
    @Test func twoHundredParallelRequestsToASleepingHandlerAreAllAnswered() async throws {
        // 200 connections from one address: over the default per-address cap, so lifted here.
        let server = try startServer(configure: { $0.maxConnectionsPerAddress = 0 }) { request in
            try? await Task.sleep(for: .milliseconds(20))
            return text(200, request.query["i"] ?? "-")
        }
        let port = server.port
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for i in 0..<200 {
                group.addTask { (i, try await fetch(port, "/work?i=\(i)").text) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 200)
        #expect(answers.allSatisfy { "\($0.key)" == $0.value })
        await server.shutdown()
    }

    @Test func heldAsyncHandlersDoNotBlockOtherRequests() async throws {
        let gate = Gate()
        let server = try startServer(
            fastHandler: { $0.path == "/healthz" ? text(200, "ok") : nil },
            handler: { request in
                if request.path == "/slow" { await gate.pass() }
                return text(200, request.path)
            })
        let port = server.port
        let slow = Task { try await fetch(port, "/slow") }
        await gate.waitForArrivals(1)
        // While /slow is held, both paths still answer.
        #expect(try await fetch(port, "/healthz").text == "ok")
        #expect(try await fetch(port, "/quick").text == "/quick")
        await gate.open()
        #expect(try await slow.value.text == "/slow")
        await server.shutdown()
    }

    /// Keep-alive connections opened together (a proxy's pool, a load generator) are spread over
    /// the loops: before, the loop that woke first accepted the whole backlog and served it alone.
    @Test(arguments: [2, 3])
    func connectionsOpenedTogetherAreSpreadOverTheLoops(threads: Int) async throws {
        let server = try startServer(
            configure: {
                $0.threads = threads
                $0.maxConnectionsPerAddress = 0
            },
            fastHandler: { _ in text(200, "\(pthread_self())") },  // the loop's thread
            handler: { _ in text(404, "-") })
        let loopsSeen = try await Self.oneRequestEach(port: server.port, connections: 4 * threads) { _ in "/loop" }
        let perLoop = Dictionary(grouping: loopsSeen, by: { $0 }).mapValues(\.count)
        #expect(perLoop.count == threads, "connections per loop: \(perLoop.values.sorted())")
        #expect(perLoop.values.allSatisfy { (3...5).contains($0) }, "connections per loop: \(perLoop.values.sorted())")
        await server.shutdown()
    }

    /// Replies made while handling one wait's events leave together, a burst at most 64 long: with
    /// 200 requests ready at once on one loop every reply still reaches its own connection.
    @Test func requestsReadyTogetherOnOneLoopEachGetTheirOwnReply() async throws {
        let server = try startServer(
            configure: {
                $0.threads = 1
                $0.maxConnectionsPerAddress = 0
            },
            fastHandler: { request in text(200, request.query["i"] ?? "-") },
            handler: { _ in text(404, "-") })
        let answers = try await Self.oneRequestEach(port: server.port, connections: 200) { "/echo?i=\($0)" }
        #expect(answers == (0..<200).map { "\($0)" })
        await server.shutdown()
    }

    /// Makes `connections` connections (all of them, so they sit in the backlog together), then
    /// sends one `GET` of `target(index)` on each, then reads each reply's text, in order.
    private static func oneRequestEach(port: Int, connections: Int, target: @escaping @Sendable (Int) -> String) async throws -> [String] {
        try await onThread {
            let sockets = try (0..<connections).map { _ in try RawHTTP.connect(port: port, receiveTimeout: 10) }
            defer { sockets.forEach { close($0) } }
            for (index, socket) in sockets.enumerated() {
                try RawHTTP.send(socket, Array("GET \(target(index)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            }
            return try sockets.map { socket in
                var pending: [UInt8] = []
                return try RawHTTP.readReply(socket, &pending).text
            }
        }
    }
}
