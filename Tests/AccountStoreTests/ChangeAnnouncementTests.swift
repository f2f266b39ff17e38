import AccountStore
@testable import AccountStoreSQL
@testable import AccountStoreSQLite
import Foundation
import Synchronization
import Testing

/// Writes name the cached rows they change, and cannot run without: the statements that change
/// accounts or sessions are found from their text, the transaction refuses one that does not name
/// its row (or names one it does not change), and the audit the conformance suite runs under
/// (``ChangeAudit``) reports a change nobody named.
@Suite struct ChangeAnnouncementTests {
    @Test("the statements that change accounts or sessions are known by their text", arguments: [
        ("UPDATE users SET is_admin = ? WHERE id = ?", CachedTable.users),
        ("DELETE FROM users WHERE id = ?", .users),
        ("update sessions set last_used_at = ? where id = ?", .sessions),
        ("DELETE FROM sessions WHERE user_id = ?", .sessions),
        ("INSERT INTO users (id) VALUES (?) ON CONFLICT (id) DO UPDATE SET mbti = excluded.mbti", .users),
        ("INSERT OR REPLACE INTO sessions (id) VALUES (?)", .sessions),
        ("WITH gone AS (DELETE FROM sessions WHERE id = ? RETURNING user_id) UPDATE users SET mbti = ?", .users),
    ] as [(String, CachedTable)])
    func changingStatements(_ sql: String, _ table: CachedTable) {
        #expect(SQLStatement(sql).changedTable == table)
    }

    @Test("reads, inserts and other tables change no cached row", arguments: [
        "SELECT id FROM users WHERE id = ?",
        "INSERT INTO sessions (id, user_id) VALUES (?, ?)",
        "INSERT INTO users (id) VALUES (?)",
        "DELETE FROM codes WHERE email_key IN (SELECT email_key FROM users WHERE id = ?)",
        "INSERT INTO totp_factors (user_id) VALUES (?) ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret",
        "UPDATE totp_factors SET last_step = ? WHERE user_id = ?",
        "UPDATE sessions_archive SET user_id = ?",
    ])
    func otherStatements(_ sql: String) {
        #expect(SQLStatement(sql).changedTable == nil)
    }

    @Test("a statement changing an account or a session runs only with the row it changes named, heard first")
    func refusedWithoutTheRow() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            let user = Fixture.user("mina")
            try await store.write { try $0.insertUser(user) }
            await store.close()

            let connection = try Connection(path: path, role: .writer)
            let rename = SQLStatement("UPDATE users SET mbti = 'ENFP' WHERE id = ?")
            let heard = Heard()
            let refusals: [(String, ChangedRow?)] = [("no row named", nil), ("a session named", .session(user.id))]
            for (what, row) in refusals {
                #expect(throws: StoreError.self, "\(what)") {
                    try connection.transaction(.immediate) { tx in
                        tx.announceChanges(to: heard)
                        try tx.execute(rename, [.uuid(user.id)], changing: row)
                    }
                }
            }
            #expect(heard.rows.isEmpty, "nothing was announced for a refused statement")
            #expect(throws: StoreError.self, "a row named for a statement that changes none") {
                try connection.transaction(.immediate) { tx in
                    try tx.execute(SQLStatement("UPDATE settings SET value = value"), [], changing: .user(user.id))
                }
            }
            let changed = try connection.transaction(.immediate) { tx -> Int in
                tx.announceChanges(to: heard)
                return try tx.execute(rename, [.uuid(user.id)], changing: .user(user.id))
            }
            #expect(changed == 1)
            #expect(heard.rows == [.user(user.id)])
            let mbti = try connection.transaction(.deferred) { try $0.user(id: user.id)?.mbti }
            #expect(mbti == "ENFP", "only the named statement ran")
        }
    }

    @Test("the audit reports a changed or deleted account or session nobody named, and nothing else")
    func auditFindsWhatWasNotNamed() {
        let user = Fixture.user("mina")
        let other = Fixture.user("jun")
        let session = Fixture.session(of: user)
        let before = ChangeAudit.Rows(users: [user.id: user, other.id: other], sessions: [session.id: session])
        var after = before
        after.users[user.id]?.mbti = "ENFP"
        after.sessions[session.id]?.revokedAt = Fixture.time(1)
        after.users[other.id] = nil
        let added = Fixture.user("new")
        after.users[added.id] = added

        #expect(ChangeAudit.unannounced(before: before, after: after, announced: []).count == 3)
        #expect(ChangeAudit.unannounced(before: before, after: after, announced: [.user(user.id)]) == ["account jun deleted"])
        #expect(
            ChangeAudit.unannounced(before: before, after: after, announced: [.session(session.id), .user(other.id)])
                == ["account mina changed"])
        #expect(ChangeAudit.unannounced(before: before, after: after, announced: [.user(user.id), .user(other.id)]).isEmpty)
        #expect(ChangeAudit.unannounced(before: before, after: before, announced: []).isEmpty)
    }
}

/// The rows a transaction announced.
private final class Heard: ChangeObserver {
    private let heard = Mutex<[ChangedRow]>([])
    var rows: [ChangedRow] { heard.withLock { $0 } }
    func willChange(_ row: ChangedRow) { heard.withLock { $0.append(row) } }
}
