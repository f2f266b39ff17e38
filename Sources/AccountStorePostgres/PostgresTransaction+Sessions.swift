import Foundation
import AccountStore

private let sessionColumns = "id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at"
// Made once: every authenticated request reads a session with its account.
private let selectSessionWithUser = """
    SELECT \(qualified(sessionColumns, "s")), \(qualified(userColumns, "u"))
    FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = $1
    """

extension PostgresTransaction {
    func insertSession(_ session: SessionRecord) throws {
        try execute("INSERT INTO sessions (\(sessionColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
            .uuid(session.id), .uuid(session.userID), .date(session.createdAt), .date(session.lastUsedAt),
            .date(session.expiresAt), .text(session.userAgent), .date(session.revokedAt),
        ])
    }

    func session(id: UUID) throws -> SessionRecord? {
        try first("SELECT \(sessionColumns) FROM sessions WHERE id = $1" + lockingClause, [.uuid(id)], row: decodeSession)
    }

    func sessionWithUser(id: UUID) throws -> (session: SessionRecord, user: UserRecord?)? {
        try first(selectSessionWithUser, [.uuid(id)]) { row in
            (try decodeSession(row), row.isNull(7) ? nil : try decodeUser(row, at: 7))
        }
    }

    func sessions(userID: UUID) throws -> [SessionRecord] {
        try query(
            "SELECT \(sessionColumns) FROM sessions WHERE user_id = $1 ORDER BY created_at DESC, id",
            [.uuid(userID)], row: decodeSession)
    }

    func touchSession(id: UUID, at date: Date) throws {
        try execute("UPDATE sessions SET last_used_at = $1 WHERE id = $2", [.date(date), .uuid(id)])
    }

    @discardableResult
    func revokeSession(id: UUID, at date: Date) throws -> Bool {
        try execute(
            "UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
            [.date(date), .uuid(id)]) > 0
    }

    @discardableResult
    func revokeSessions(userID: UUID, except: UUID?, at date: Date) throws -> Int {
        guard let except else {
            return try execute(
                "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
                [.date(date), .uuid(userID)])
        }
        return try execute(
            "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL AND id <> $3",
            [.date(date), .uuid(userID), .uuid(except)])
    }

    func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try execute(
            "INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at, used_by) VALUES ($1, $2, $3, $4, $5)",
            [.bytea(token.hash), .uuid(token.sessionID), .date(token.issuedAt), .date(token.usedAt), token.usedBy.map { .bytea($0) } ?? .null])
    }

    func refreshToken(hash: [UInt8]) throws -> RefreshTokenRecord? {
        try first(
            "SELECT hash, session_id, issued_at, used_at, used_by FROM refresh_tokens WHERE hash = $1" + lockingClause, [.bytea(hash)]
        ) { row in
            RefreshTokenRecord(
                hash: try row.bytea(0), sessionID: try row.uuid(1), issuedAt: row.date(2), usedAt: row.optionalDate(3),
                usedBy: row.isNull(4) ? nil : try row.bytea(4))
        }
    }

    func markRefreshTokenUsed(hash: [UInt8], at date: Date, client: [UInt8]?) throws -> Bool {
        try execute(
            "UPDATE refresh_tokens SET used_at = $1, used_by = $2 WHERE hash = $3 AND used_at IS NULL",
            [.date(date), client.map { .bytea($0) } ?? .null, .bytea(hash)]) > 0
    }
}

private func decodeSession(_ row: PGRow) throws -> SessionRecord {
    SessionRecord(
        id: try row.uuid(0), userID: try row.uuid(1), createdAt: row.date(2), lastUsedAt: row.date(3),
        expiresAt: row.date(4), userAgent: row.optionalText(5), revokedAt: row.optionalDate(6))
}

/// `columns` (a comma-separated list) each prefixed with the table alias `alias`.
private func qualified(_ columns: String, _ alias: String) -> String {
    columns.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespacesAndNewlines))" }.joined(separator: ", ")
}
