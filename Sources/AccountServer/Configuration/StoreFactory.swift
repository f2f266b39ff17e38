import AccountStore
import AccountStoreSQLite

/// Opens the store a `--database-url` names.
enum StoreFactory {
    static func open(_ url: String) throws -> any AccountStore {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw CommandLineError(description: "--database-url sqlite: needs a file path") }
            return try SQLiteAccountStore(path: path)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            throw CommandLineError(description: "PostgreSQL is not supported by this build yet; use sqlite:PATH")
        }
        throw CommandLineError(description: "--database-url must be sqlite:PATH, not \(url.prefix(16))…")
    }
}
