import AccountCore
import Foundation
import AccountStore
import AccountStoreCache
import AccountStorePostgres
import AccountStoreSQLite

/// Opens the store a `--database-url` names.
enum StoreFactory {
    /// Opens the store `url` names: PostgreSQL with `poolSize` connections, or SQLite with up to
    /// `inlineReaders` read connections that HTTP threads may borrow (one per HTTP thread); behind
    /// a cache (`CachingAccountStore`) with a read model of `readModel` sessions unless that is 0,
    /// kept fresh by the backend's change feed (on PostgreSQL, change notifications).
    /// `freshness` is the PostgreSQL feed's (`exact` or `notified`); `sessionIdle` and `clock`
    /// judge its held sessions' last use.
    static func open(
        _ url: String, poolSize: Int = 8, inlineReaders: Int = 0, readModel: Int = 0, freshness: String = "exact",
        sessionIdle: TimeInterval? = nil, clock: ServerClock = .system
    ) throws -> any AccountStore {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw CommandLineError(description: "--database-url sqlite: needs a file path") }
            let store = try SQLiteAccountStore(path: path, inlineReaders: inlineReaders)
            warnAboutLooseFiles(store.tightenedFiles)
            guard readModel > 0 else { return store }
            return CachingAccountStore(store, capacity: readModel, feed: store.changeFeed(reportingTo:))
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let store = try PostgresAccountStore(url: url, poolSize: poolSize)
            guard readModel > 0 else { return store }
            return CachingAccountStore(store, capacity: readModel) { model in
                store.changeFeed(
                    reportingTo: model, freshness: PostgresChangeFeed.Freshness(rawValue: freshness) ?? .exact,
                    sessionIdle: sessionIdle, now: clock.now)
            }
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
