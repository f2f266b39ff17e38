import AccountStore
import Foundation

/// Sessions and their refresh tokens.
private enum SessionSQL {
    static let columns = "id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at, amr"
    static let insert = SQLStatement("INSERT INTO sessions (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    /// Runs on every authenticated request, and in every refresh before the session is touched.
    static let byID = LockableRead("SELECT \(columns) FROM sessions WHERE id = ?")
    /// Every authenticated request: the session with its account (NULLs when the account is gone),
    /// in one statement. Never `FOR UPDATE`: PostgreSQL refuses it on an outer join's nullable side.
    static let withUser = SQLStatement("""
        SELECT \(columns.split(separator: ",").map { "s." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
            \(UserSQL.columns(qualifiedBy: "u"))
        FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?
        """)
    static let byUser = SQLStatement("SELECT \(columns) FROM sessions WHERE user_id = ? ORDER BY created_at DESC, id")
    static let touch = SQLStatement("UPDATE sessions SET last_used_at = ? WHERE id = ?")
    static let revoke = SQLStatement("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
    static let revokeAll = SQLStatement("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL")
    static let revokeAllBut = SQLStatement(
        "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND id <> ?")
}

/// Refresh tokens, by the hash of their text.
private enum RefreshTokenSQL {
    static let insert = SQLStatement(
        "INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at, used_by) VALUES (?, ?, ?, ?, ?)")
    /// Read before the token is used, so a second refresh with it waits for the first (PostgreSQL).
    static let byHash = LockableRead(
        "SELECT hash, session_id, issued_at, used_at, used_by FROM refresh_tokens WHERE hash = ?")
    static let markUsed = SQLStatement(
        "UPDATE refresh_tokens SET used_at = ?, used_by = ? WHERE hash = ? AND used_at IS NULL")
}

extension SQLTransaction {
    public func insertSession(_ session: SessionRecord) throws {
        try execute(SessionSQL.insert, [
            .uuid(session.id), .uuid(session.userID), .date(session.createdAt), .date(session.lastUsedAt),
            .date(session.expiresAt), .text(session.userAgent), .date(session.revokedAt),
            .text(session.amr.joined(separator: " ")),
        ])
    }

    public func session(id: UUID) throws -> SessionRecord? {
        try first(statement(SessionSQL.byID), [.uuid(id)]) { try SessionRecord(row: $0) }
    }

    public func sessionWithUser(id: UUID) throws -> (session: SessionRecord, user: UserRecord?)? {
        try first(SessionSQL.withUser, [.uuid(id)]) { row in
            (try SessionRecord(row: row), row.isNull(8) ? nil : try UserRecord(row: row, at: 8))
        }
    }

    public func sessions(userID: UUID) throws -> [SessionRecord] {
        try query(SessionSQL.byUser, [.uuid(userID)]) { try SessionRecord(row: $0) }
    }

    public func touchSession(id: UUID, at date: Date) throws {
        try execute(SessionSQL.touch, [.date(date), .uuid(id)])
    }

    @discardableResult
    public func revokeSession(id: UUID, at date: Date) throws -> Bool {
        try execute(SessionSQL.revoke, [.date(date), .uuid(id)]) > 0
    }

    @discardableResult
    public func revokeSessions(userID: UUID, except: UUID?, at date: Date) throws -> Int {
        guard let except else { return try execute(SessionSQL.revokeAll, [.date(date), .uuid(userID)]) }
        return try execute(SessionSQL.revokeAllBut, [.date(date), .uuid(userID), .uuid(except)])
    }

    public func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try execute(RefreshTokenSQL.insert, [
            .blob(token.hash), .uuid(token.sessionID), .date(token.issuedAt), .date(token.usedAt), .blob(token.usedBy),
        ])
    }

    public func refreshToken(hash: [UInt8]) throws -> RefreshTokenRecord? {
        try first(statement(RefreshTokenSQL.byHash), [.blob(hash)]) { row in
            RefreshTokenRecord(
                hash: try row.blob(0), sessionID: try row.uuid(1), issuedAt: row.date(2), usedAt: row.optionalDate(3),
                usedBy: try row.optionalBlob(4))
        }
    }

    public func markRefreshTokenUsed(hash: [UInt8], at date: Date, client: [UInt8]?) throws -> Bool {
        try execute(RefreshTokenSQL.markUsed, [.date(date), .blob(client), .blob(hash)]) > 0
    }
}

extension SessionRecord {
    /// A session from a row of `SessionSQL.columns`.
    fileprivate init(row: any SQLRow) throws {
        self.init(
            id: try row.uuid(0), userID: try row.uuid(1), createdAt: row.date(2), lastUsedAt: row.date(3),
            expiresAt: row.date(4), userAgent: row.optionalText(5), revokedAt: row.optionalDate(6),
            // Sessions from before `amr` was kept were opened by a password.
            amr: row.optionalText(7).map { $0.split(separator: " ").map(String.init) } ?? ["pwd"])
    }
}
