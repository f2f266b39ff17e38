import AccountCore
import Foundation
import AccountStore
import AccountStorePostgres
import AccountStoreSQLite

/// Opens the store a `--database-url` names.
enum StoreFactory {
    /// Opens the store `url` names: PostgreSQL with `poolSize` connections, or SQLite with up to
    /// `inlineReaders` read connections that HTTP threads may borrow (one per HTTP thread) and a
    /// read model of `readModel` sessions (none when 0; on PostgreSQL kept fresh by change notifications).
    /// `freshness` is the PostgreSQL read model's (`exact` or `notified`); `sessionIdle` and
    /// `clock` judge its held sessions' last use.
    static func open(
        _ url: String, poolSize: Int = 8, inlineReaders: Int = 0, readModel: Int = 0, freshness: String = "exact",
        sessionIdle: TimeInterval? = nil, clock: ServerClock = .system
    ) throws -> any AccountStore {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw CommandLineError(description: "--database-url sqlite: needs a file path") }
            let store = try SQLiteAccountStore(path: path, inlineReaders: inlineReaders, readModel: readModel)
            warnAboutLooseFiles(store.tightenedFiles)
            return store
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return try PostgresAccountStore(
                url: url, poolSize: poolSize, readModel: readModel, freshness: PostgresAccountStore.Freshness(rawValue: freshness) ?? .exact,
                sessionIdle: sessionIdle, now: clock.now)
        }
        throw CommandLineError(description: "--database-url must be sqlite:PATH or postgres://user:pass@host:port/db")
    }

    /// One warning line naming the database files that other users could read, now `0600`.
    static func warnAboutLooseFiles(_ files: [SQLiteAccountStore.LooseFile]) {
        guard !files.isEmpty else { return }
        Log.notice("database_file_mode_tightened", [
            "files": files.map { "\($0.path) (was \(String($0.previousMode, radix: 8)))" }.joined(separator: ", "),
            "mode": "600",
            "advice": "other users could read the database (password hashes, sessions, signing keys); check who copied it",
        ])
    }
}
