import AccountAPI
import Foundation
import TestSupport
import Testing

extension ServerProcess {
    /// `account-server admin …` on this server's database (`database` given otherwise).
    func adminCommand(_ arguments: [String], database: String? = nil) async throws -> ProgramResult {
        try await runServerCommand(["admin"] + arguments + ["--database-url", database ?? databaseURL])
    }

    /// `POST /admin/api/users/{id}/<action>` with `reason` (none when `nil`).
    func adminAction(_ action: String, on id: String, reason: String? = "tests", token: String) async throws -> Reply {
        try await client.send("POST", "/admin/api/users/\(id)/\(action)", json: reason.map { ["reason": $0] } ?? [:], token: token)
    }

    /// `GET /admin/api/users` with the query (without `?`).
    func adminSearch(_ query: String, token: String) async throws -> Reply {
        try await client.send("GET", "/admin/api/users" + (query.isEmpty ? "" : "?" + query), token: token)
    }

    /// The audit log, newest first (the first 100 events).
    func auditEvents(token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [AdminAuditEvent] {
        let reply = try await client.send("GET", "/admin/api/audit?limit=100", token: token)
        try #require(reply.status == 200, "audit: \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(AdminAuditPage.self).events
    }

    /// The id of the account `account` (logged in once to read it).
    func accountID(_ pair: TokenPair) -> String { pair.user.id.lowercasedText }
}
