import AccountStore
import Foundation

/// The database file and the files SQLite keeps beside it, readable and writable by the server's
/// user alone (`0600`) whatever the umask: they hold password hashes and the server's secrets.
///
/// SQLite creates a new database `0644` less the umask, and gives its `-wal`, `-shm` and
/// `-journal` files the database file's own mode. So the database file is created here first,
/// `0600`, and SQLite's companions follow it; an existing one that others may read or write is
/// tightened to `0600`, and the caller is told which so it can warn.
enum DatabaseFiles {
    /// The suffixes of the files SQLite keeps next to a database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Creates `path` (mode `0600`) if it does not exist, and tightens it and its companions to
    /// `0600` where group or others have any permission.
    /// - Returns: the files tightened, with their modes before.
    /// - Throws: `StoreError.unavailable` when a file cannot be created or tightened.
    static func secure(_ path: String) throws -> [SQLiteAccountStore.LooseFile] {
        // `:memory:` and the empty name are not files.
        guard !path.isEmpty, path != ":memory:" else { return [] }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // The mode given to open() passed through the umask; this one does not.
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("cannot make \(path) private") }
        } else if errno != EEXIST {
            // Let SQLite report an unopenable path the way it always has.
            return []
        }
        var tightened: [SQLiteAccountStore.LooseFile] = []
        for file in [path] + companionSuffixes.map({ path + $0 }) {
            var status = stat()
            guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            let mode = status.st_mode & 0o7777
            guard mode & 0o077 != 0 else { continue }
            guard chmod(file, 0o600) == 0 else {
                throw failure("\(file) is open to other users (mode \(String(mode, radix: 8))) and cannot be made private")
            }
            tightened.append(SQLiteAccountStore.LooseFile(path: file, previousMode: UInt16(mode)))
        }
        return tightened
    }

    private static func failure(_ what: String) -> StoreError {
        .unavailable(reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
