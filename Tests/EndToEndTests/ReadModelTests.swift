import AccountAPI
import Foundation
import TestSupport
import Testing

/// The server's read model against writers it does not know: a second server on the same SQLite
/// file, an operator's `sqlite3`, `account-server keys rotate`. The very next `/auth/me` after
/// their write says what the database says.
@Suite struct ReadModelTests {
    /// `/auth/me` twice, so the second is answered from memory (the metrics say so).
    func warm(_ server: ServerProcess, _ token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try await hits(server)
        #expect(try await server.me(token).status == 200, sourceLocation: sourceLocation)
        #expect(try await server.me(token).status == 200, sourceLocation: sourceLocation)
        #expect(try await hits(server) > before, "answered from the read model", sourceLocation: sourceLocation)
    }

    /// `read_model_lookups_total{result="hit"}` of `server`.
    func hits(_ server: ServerProcess) async throws -> Int {
        try await server.metric("read_model_lookups_total{result=\"hit\"}")
    }

    @Test func aSecondServerOnTheSameFile() async throws {
        let a = try await ServerProcess.start()
        let b = try await ServerProcess.start(in: a.folder)
        let (_, pair) = try await a.verifiedAccount("twofile")
        try await warm(a, pair.access)
        let renamed = "renamed_\(UUID().uuidString.prefix(6).lowercased())"
        #expect(try await b.client.send("PATCH", "/auth/me", json: ["username": renamed, "mbti": "istj"], token: pair.access).status == 200)
        let shown = try await a.me(pair.access)
        #expect(shown.status == 200)
        #expect(try shown.decode(User.self).username == renamed)
        #expect(try shown.decode(User.self).mbti == .istj)
        try await warm(a, pair.access)
        #expect(try await b.client.send("POST", "/auth/logout", token: pair.access).status == 204)
        #expect(try await a.me(pair.access).problem?.code == .sessionRevoked)
        #expect(try await a.metric("read_model_clears_total") >= 2)
        await a.stop()
        await b.stop()
    }

    @Test func anOperatorsSqlite3Script() async throws {
        let server = try await ServerProcess.start()
        let (account, pair) = try await server.verifiedAccount("operator")
        let database = server.folder.database.path
        try await warm(server, pair.access)
        let edit = try await Program.run("sqlite3", [database, "UPDATE users SET mbti = 'ISTJ' WHERE email = '\(account.email)';"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try await server.me(pair.access).decode(User.self).mbti == .istj)
        try await warm(server, pair.access)
        let revoke = try await Program.run("sqlite3", [database, "UPDATE sessions SET revoked_at = 1 WHERE revoked_at IS NULL;"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        #expect(try await server.me(pair.access).problem?.code == .sessionRevoked)
        await server.stop()
    }

    @Test func keysRotateWhileServing() async throws {
        let server = try await ServerProcess.start()
        let (_, pair) = try await server.verifiedAccount("rotation")
        try await warm(server, pair.access)
        let rotation = try await runServerCommand(["keys", "rotate", "--database-url", "sqlite:\(server.folder.database.path)"])
        #expect(rotation.status.isSuccess, "\(rotation.stdout)\(rotation.stderr)")
        // The rotation wrote the file: the model is dropped and filled again, and answers the same.
        #expect(try await server.me(pair.access).status == 200)
        try await warm(server, pair.access)
        #expect(try await server.client.send("POST", "/auth/logout", token: pair.access).status == 204)
        #expect(try await server.me(pair.access).problem?.code == .sessionRevoked)
        await server.stop()
    }

    @Test func turnedOffItReadsTheDatabaseAndShowsNoCounters() async throws {
        let server = try await ServerProcess.start(["--read-model", "off"])
        let (_, pair) = try await server.verifiedAccount("modeloff")
        #expect(try await server.me(pair.access).status == 200)
        #expect(!(try await server.client.send("GET", "/metrics").text.contains("read_model")))
        let revoke = try await Program.run("sqlite3", [server.folder.database.path, "UPDATE sessions SET revoked_at = 1;"])
        #expect(revoke.status == 0)
        #expect(try await server.me(pair.access).problem?.code == .sessionRevoked)
        await server.stop()
    }
}
