import AccountStore
import Foundation

/// Sessions and their refresh tokens.
private enum SessionSQL {
    static let columns = "id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at, amr, client_address"
    /// Where the session's refresh tokens stand (``SessionRefresh``), after ``columns``.
    static let refreshColumns = "refresh_generation, refresh_hash, refreshed_by"
    static let insert = SQLStatement(
        "INSERT INTO sessions (\(columns), \(refreshColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    /// A session by id, locked in a write transaction that decides on it.
    static let byID = LockableRead("SELECT \(columns) FROM sessions WHERE id = ?")
    /// Every authenticated request: the session with its account (NULLs when the account is gone),
    /// in one statement. Never `FOR UPDATE`: PostgreSQL refuses it on an outer join's nullable side.
    static let withUser = SQLStatement("""
        SELECT \(qualified(columns)), \(UserSQL.columns(qualifiedBy: "u"))
        FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?
        """)
    /// Every refresh: the session, its tokens' state and its account, the session row locked
    /// (only it: a lock on the account too could deadlock with a deletion, which locks the
    /// account first and then its sessions).
    static let forRefresh = LockableRead("""
        SELECT \(qualified(columns)), \(qualified(refreshColumns)), \(UserSQL.columns(qualifiedBy: "u"))
        FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?
        """, lockClause: " FOR UPDATE OF s")
    /// The one write of a refresh: the session's tokens, its last use and the address it came from.
    static let rotate = SQLStatement("""
        UPDATE sessions SET refresh_generation = ?, refresh_hash = ?, refreshed_by = ?, last_used_at = ?, client_address = ?
        WHERE id = ? AND refresh_generation = ?
        """)
    static let byUser = SQLStatement("SELECT \(columns) FROM sessions WHERE user_id = ? ORDER BY created_at DESC, id")
    static let touch = SQLStatement("UPDATE sessions SET last_used_at = ? WHERE id = ?")
    /// Revocations forget the client address in the same statement: it is kept only while the
    /// session lives.
    static let revoke = SQLStatement(
        "UPDATE sessions SET revoked_at = ?, client_address = NULL WHERE id = ? AND revoked_at IS NULL")
    static let revokeAll = SQLStatement(
        "UPDATE sessions SET revoked_at = ?, client_address = NULL WHERE user_id = ? AND revoked_at IS NULL")
    static let revokeAllBut = SQLStatement(
        "UPDATE sessions SET revoked_at = ?, client_address = NULL WHERE user_id = ? AND revoked_at IS NULL AND id <> ?")
    /// What makes a session ended for the address sweep: revoked, past its absolute end (`?` now),
    /// or unused since `?` (its idle end).
    private static let ended = "client_address IS NOT NULL AND (revoked_at IS NOT NULL OR expires_at <= ? OR last_used_at <= ?)"
    static let endedWithAddress = SQLStatement("SELECT id FROM sessions WHERE \(ended) LIMIT ?")
    static let forgetAddress = SQLStatement("UPDATE sessions SET client_address = NULL WHERE id = ? AND \(ended)")

    /// `columns`, each prefixed with the alias `s.`.
    private static func qualified(_ columns: String) -> String {
        columns.split(separator: ",").map { "s." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }
}

extension SQLTransaction {
    public func insertSession(_ session: SessionRecord, refresh: SessionRefresh) throws {
        try execute(SessionSQL.insert, [
            .uuid(session.id), .uuid(session.userID), .date(session.createdAt), .date(session.lastUsedAt),
            .date(session.expiresAt), .text(session.userAgent), .date(session.revokedAt),
            .text(session.amr.joined(separator: " ")), .text(session.clientAddress),
            .integer(refresh.generation), .blob(refresh.tokenHash), .blob(refresh.rotatedBy),
        ])
    }

    public func refreshableSession(id: UUID) throws -> RefreshableSession? {
        try first(statement(SessionSQL.forRefresh), [.uuid(id)]) { row in
            RefreshableSession(
                session: try SessionRecord(row: row),
                refresh: SessionRefresh(generation: row.int64(9), tokenHash: try row.blob(10), rotatedBy: try row.optionalBlob(11)),
                user: try UserRecord(row: row, at: 12))
        }
    }

    public func rotateRefresh(
        sessionID: UUID, from current: Int64, to next: SessionRefresh, at date: Date, clientAddress: String?
    ) throws -> Bool {
        try execute(SessionSQL.rotate, [
            .integer(next.generation), .blob(next.tokenHash), .blob(next.rotatedBy), .date(date), .text(clientAddress), .uuid(sessionID),
            .integer(current),
        ], changing: .session(sessionID)) > 0
    }

    public func session(id: UUID) throws -> SessionRecord? {
        try first(statement(SessionSQL.byID), [.uuid(id)]) { try SessionRecord(row: $0) }
    }

    public func sessionWithUser(id: UUID) throws -> (session: SessionRecord, user: UserRecord?)? {
        try first(SessionSQL.withUser, [.uuid(id)]) { row in
            (try SessionRecord(row: row), row.isNull(9) ? nil : try UserRecord(row: row, at: 9))
        }
    }

    public func sessions(userID: UUID) throws -> [SessionRecord] {
        try query(SessionSQL.byUser, [.uuid(userID)]) { try SessionRecord(row: $0) }
    }

    public func touchSession(id: UUID, at date: Date) throws {
        try execute(SessionSQL.touch, [.date(date), .uuid(id)], changing: .session(id))
    }

    @discardableResult
    public func revokeSession(id: UUID, at date: Date) throws -> Bool {
        try execute(SessionSQL.revoke, [.date(date), .uuid(id)], changing: .session(id)) > 0
    }

    @discardableResult
    public func revokeSessions(userID: UUID, except: UUID?, at date: Date) throws -> Int {
        guard let except else { return try execute(SessionSQL.revokeAll, [.date(date), .uuid(userID)], changing: .user(userID)) }
        return try execute(SessionSQL.revokeAllBut, [.date(date), .uuid(userID), .uuid(except)], changing: .user(userID))
    }

    public func endedSessionsWithAddress(now: Date, idleSince: Date, limit: Int) throws -> [UUID] {
        try query(SessionSQL.endedWithAddress, [.date(now), .date(idleSince), .int(limit)]) { try $0.uuid(0) }
    }

    @discardableResult
    public func forgetClientAddresses(sessionIDs: [UUID], now: Date, idleSince: Date) throws -> Int {
        try sessionIDs.reduce(0) {
            $0 + (try execute(SessionSQL.forgetAddress, [.uuid($1), .date(now), .date(idleSince)], changing: .session($1)))
        }
    }
}

extension SessionRecord {
    /// A session from a row of `SessionSQL.columns`.
    fileprivate init(row: any SQLRow) throws {
        self.init(
            id: try row.uuid(0), userID: try row.uuid(1), createdAt: row.date(2), lastUsedAt: row.date(3),
            expiresAt: row.date(4), userAgent: row.optionalText(5), revokedAt: row.optionalDate(6),
            amr: row.text(7).split(separator: " ").map(String.init),
            clientAddress: row.optionalText(8))
    }
}
