import HTTPServer
import TestSupport
import Testing

@Suite struct LifecycleTests {
    @Test func shutdownWaitsForARequestInFlightThenRefusesConnections() async throws {
        let gate = Gate()
        let log = EventLog()
        let server = try startServer { _ in
            await gate.pass()
            await log.record("handler finished")
            return text(200, "finished")
        }
        let port = server.port
        let request = Task { try await RawHTTP.exchange(port: port, ["GET / HTTP/1.1\r\nHost: x\r\n\r\n"]) }
        await gate.waitForArrivals(1)
        let stopping = Task {
            await server.shutdown()
            await log.record("shutdown returned")
        }
        // Give a shutdown that does not wait the chance to return before the handler finishes.
        try await Task.sleep(for: .milliseconds(100))
        await gate.open()
        let answer = try await request.value
        await stopping.value
        #expect(answer.status == 200)
        #expect(answer.text == "finished")
        #expect(await log.events == ["handler finished", "shutdown returned"])
        #expect(await RawHTTP.canConnect(port: port) == false)
        await server.shutdown()
    }

    @Test func secondServerOnATakenPortCannotListen() async throws {
        let first = try startServer { _ in text(200, "") }
        let second = HTTPServer(
            configuration: HTTPServerConfiguration(port: first.port),
            handler: { _ in text(200, "") })
        #expect(throws: HTTPServerError.self) { try second.start() }
        await second.shutdown()
        await first.shutdown()
    }

    @Test func listensOnIPv6Loopback() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "::1", port: 0),
            handler: { request in text(200, request.remoteAddress) })
        try server.start()
        let answer = try await RawHTTP.exchange(
            port: server.port, ipv6: true, ["GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(answer.text == "::1")
        await server.shutdown()
    }

    @Test func hostThatIsNotALiteralCannotListen() {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "localhost", port: 0),
            handler: { _ in text(200, "") })
        #expect(throws: HTTPServerError.self) { try server.start() }
    }
}
