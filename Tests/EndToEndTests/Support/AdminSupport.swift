import AccountAPI
import Foundation
import TestSupport
import Testing

/// An operator signed in with the second factor: the account, its id and its access token.
struct SignedInOperator: Sendable {
    let factor: SecondFactorAccount
    let id: String
    let access: String
}

extension ServerProcess {
    /// `account-server admin …` on this server's SQLite database (`--database-url` given otherwise).
    func adminCommand(_ arguments: [String], database: String? = nil) async throws -> ProgramResult {
        try await runServerCommand(["admin"] + arguments + ["--database-url", database ?? "sqlite:\(folder.database.path)"])
    }

    /// A new account with a second factor, given the admin role on the command line and signed in
    /// with its authenticator (`amr` names `otp`).
    func signedInOperator(
        _ tag: String = "op", clock: TestClock, database: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SignedInOperator {
        let factor = try await accountWithSecondFactor(tag, clock: clock, sourceLocation: sourceLocation)
        let grant = try await adminCommand(["grant", factor.account.username, "--reason", "tests"], database: database)
        try #require(grant.status.code == 0, "grant: \(grant)", sourceLocation: sourceLocation)
        let challenge = try await self.challenge(factor.account, sourceLocation: sourceLocation)
        let reply = try await answer(challenge.mfaToken, code: factor.code(at: clock.nextStep()))
        try #require(reply.status == 200, "mfa verify: \(reply.text)", sourceLocation: sourceLocation)
        let pair = try reply.decode(TokenPair.self)
        return SignedInOperator(factor: factor, id: pair.user.id.lowercasedText, access: pair.access)
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
