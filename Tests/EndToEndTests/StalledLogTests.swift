import AccountAPI
import Foundation
import TestSupport
import Testing

/// The log never makes a request wait: lines go through a bounded buffer that a thread of the
/// server's own writes to standard error, dropping (and counting) what it cannot take.
@Suite("A log that never makes a request wait")
struct StalledLogTests {
    @Test("a stderr nobody reads: /auth/me is answered, access lines are dropped and counted, security events kept; read again, a warning comes and lines flow")
    func stalledStandardError() async throws {
        let server = try await ServerProcess.start(holdingStandardError: true)
        let standardError = server.child.standardError
        defer { standardError.release() }
        let (_, pair) = try await server.verifiedAccount("stalled")

        // Requests with long access lines (a 6,000-byte path, answered 404) until the sink drops a
        // line: the pipe is full and the buffer's part for access lines too. 100 rounds are ten
        // times what the pipe and the buffer hold.
        let longPath = "/no/such/" + String(repeating: "x", count: 6000)
        var dropped = 0
        for _ in 0..<100 where dropped == 0 {
            let statuses = try await Self.concurrently(16) { _ in try await server.client.send("GET", longPath).status }
            #expect(statuses.allSatisfy { $0 == 404 }, "\(statuses)")
            dropped = try await server.metric("log_lines_dropped_total")
        }
        try #require(dropped > 0, "no line dropped although nothing reads standard error")

        // While nothing reads, /auth/me is answered, and its lines are counted as dropped.
        let statuses = try await Self.concurrently(400, width: 8) { _ in try await server.me(pair.access).status }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(Set(statuses))")
        let droppedWhileFull = try await server.metric("log_lines_dropped_total")
        #expect(droppedWhileFull > dropped)

        // Security events still find room: the access lines of the same requests do not.
        for index in 0..<5 {
            let reply = try await server.client.send(
                "POST", "/auth/login", json: ["username": "nobody_\(index)_\(UUID().uuidString.prefix(6))", "password": "Wrong-password-1"],
                headers: ["X-Request-Id": "stalled-login-\(index)"])
            #expect(reply.status == 401, "\(reply.text)")
        }
        #expect(try await server.metric("log_event_lines_dropped_total") == 0)

        // The reader comes back: warnings account for every drop counted, none of an event.
        standardError.release()
        let sum = { logEvents(server.logs, "log_lines_dropped").compactMap { Int($0["dropped"] as? String ?? "") }.reduce(0, +) }
        try await eventually("log_lines_dropped warnings adding up to \(droppedWhileFull)") { sum() >= droppedWhileFull }
        let warnings = logEvents(server.logs, "log_lines_dropped")
        for warning in warnings {
            #expect(warning["level"] as? String == "warning" && warning["events_dropped"] as? String == "0", "\(warning)")
        }

        // Lines flow again.
        let after = try await server.client.send("GET", "/auth/me", token: pair.access, headers: ["X-Request-Id": "after-the-stall"])
        #expect(after.status == 200)
        try await eventually("the access line of a request after the stall") {
            logEvents(server.logs, "request").contains { $0["request_id"] as? String == "after-the-stall" }
        }

        await server.stop()
        let failed = Set(logEvents(server.logs, "login_failed").compactMap { $0["request_id"] as? String })
        let loginAccess = logEvents(server.logs, "request").filter { ($0["request_id"] as? String ?? "").hasPrefix("stalled-login-") }
        for index in 0..<5 { #expect(failed.contains("stalled-login-\(index)"), "the security event of login \(index)") }
        #expect(loginAccess.isEmpty, "the logins' access lines were dropped while their events were kept: \(loginAccess)")
    }

    @Test("SIGTERM: the line of every answered request is written before the exit, even from a buffer that could not be written until then")
    func terminationFlushes() async throws {
        // Nothing reads standard error while the requests are answered and the stop begins, so
        // their lines are all still in the buffer when SIGTERM comes; the reader is back only after.
        let server = try await ServerProcess.start(holdingStandardError: true)
        let standardError = server.child.standardError
        defer { standardError.release() }
        let (_, pair) = try await server.verifiedAccount("flush")
        let statuses = try await Self.concurrently(300, width: 10) { index in
            try await server.client.send("GET", "/auth/me", token: pair.access, headers: ["X-Request-Id": "flush-\(index)"]).status
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        server.child.send(SIGTERM)
        try await eventually("the server stopping") { server.child.standardOutput.text.contains("account-server: stopping") }
        // Long enough for a server that does not wait for its log to be gone already (not needed
        // for one that does: it waits as long as the reader keeps taking lines).
        try await Task.sleep(for: .milliseconds(500))
        standardError.release()
        let status = await server.child.exitStatus(timeout: 30)
        #expect(status == ExitStatus(code: 0, signaled: false), "\(server.child.transcript.suffix(2000))")
        await server.drained()
        let logged = Set(logEvents(server.logs, "request").compactMap { $0["request_id"] as? String })
        let missing = (0..<300).map { "flush-\($0)" }.filter { !logged.contains($0) }
        #expect(missing.count == 0, "access lines missing, such as \(missing.prefix(5))")
        #expect(logEvents(server.logs, "log_lines_dropped").isEmpty)
        #expect(logEvents(server.logs, "login_succeeded").count == 1)
    }

    /// Runs `count` calls, `width` at a time; their results in order.
    private static func concurrently<T: Sendable>(
        _ count: Int, width: Int? = nil, _ call: @escaping @Sendable (Int) async throws -> T
    ) async throws -> [T] {
        var results: [T] = []
        let width = width ?? count
        for start in stride(from: 0, to: count, by: width) {
            results += try await withThrowingTaskGroup(of: (Int, T).self) { group in
                for index in start..<min(start + width, count) { group.addTask { (index, try await call(index)) } }
                return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
        return results
    }
}
