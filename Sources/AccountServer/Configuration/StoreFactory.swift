import AccountStore
import AccountStorePostgres
import AccountStoreSQLite

/// Opens the store a `--database-url` names.
enum StoreFactory {
    static func open(_ url: String, poolSize: Int = 8) throws -> any AccountStore {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw CommandLineError(description: "--database-url sqlite: needs a file path") }
            return try SQLiteAccountStore(path: path)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return try PostgresAccountStore(url: url, poolSize: poolSize)
        }
        throw CommandLineError(description: "--database-url must be sqlite:PATH or postgres://user:pass@host:port/db")
    }
}
