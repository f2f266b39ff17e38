import HTTPServer
import Testing

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
                group.addTask { (i, try await fetch(port, "/work?i=\(i)").body) }
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
        #expect(try await fetch(port, "/healthz").body == "ok")
        #expect(try await fetch(port, "/quick").body == "/quick")
        await gate.open()
        #expect(try await slow.value.body == "/slow")
        await server.shutdown()
    }
}
