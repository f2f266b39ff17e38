import AccountAPI
import Foundation
import TestSupport
import Testing

/// A 5xx says why: one `server_error` line with the request id, the store's error kind and the
/// SQLSTATE, and a count in `/metrics`, from the real binary over a PostgreSQL that fails it.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct ServerErrorLogTests {
    @Test func aFailingStatementLogsItsReasonOnceAndNothingElse() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let server = try await ServerProcess.start(["--database-url", database])
        // A schema the server does not expect: every statement on users fails with 42P01.
        try await PostgresTestServer.psql(database, "ALTER TABLE users RENAME TO users_elsewhere")
        let password = "Secret-\(UUID().uuidString)"
        let reply = try await server.client.send(
            "POST", "/auth/login", json: ["username": "someone", "password": password], headers: ["X-Request-Id": "failing-statement-check"])
        #expect(reply.status == 500 && reply.problem?.code == .internalError, "\(reply.text)")
        #expect(!reply.text.contains("users"), "no SQL or table in the reply")
        let metrics = try await server.client.send("GET", "/metrics").text
        await server.stop()

        let errors = server.logs.split(separator: "\n").compactMap { line -> [String: String]? in
            guard line.contains(#""event":"server_error""#) else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        }
        #expect(errors.count == 1, "one line per 5xx: \(errors)")
        let line = try #require(errors.first)
        #expect(line == ["event": "server_error", "time": line["time"] ?? "", "request_id": "failing-statement-check", "status": "500",
                         "reason": "store_failure", "sql_state": "42P01"])
        #expect(!server.logs.contains(password) && !server.logs.contains("someone"))
        #expect(metrics.contains(#"http_server_errors_total{reason="store_failure",sqlstate="42P01"} 1"#), "\(metrics)")
    }
}
