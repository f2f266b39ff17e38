import Foundation

/// What a copy of an SQLite database alone gives away: every row as the `sqlite3` program reads
/// it (`.dump`, the write-ahead log included), and the raw bytes of the database's files.
///
/// ```swift
/// let copy = try await DatabaseCopy.read(folder.database.path)
/// #expect(!copy.contains("Your password reset code"))
/// ```
public struct DatabaseCopy: Sendable {
    /// `sqlite3 PATH .dump`.
    public let dump: String
    /// The database file, then its `-wal` and `-journal` when there are any.
    public let bytes: [UInt8]

    /// Reads the database at `path` (a server may still have it open).
    public static func read(_ path: String) async throws -> DatabaseCopy {
        let result = try await Program.run("sqlite3", [path, ".dump"])
        guard result.status.isSuccess else { throw TestFailure("sqlite3 \(path) .dump: \(result.stderr)") }
        var bytes: [UInt8] = []
        for file in [path, path + "-wal", path + "-journal"] {
            if let data = FileManager.default.contents(atPath: file) { bytes += data }
        }
        return DatabaseCopy(dump: result.stdout, bytes: bytes)
    }

    /// Whether `text` appears in a row or anywhere in the files.
    public func contains(_ text: String) -> Bool {
        dump.contains(text) || Self.find(Array(text.utf8), in: bytes, standingAlone: false)
    }

    /// Whether the code `code` appears as a mail shows it: not inside a longer run of hex digits,
    /// as a timestamp, an id or a hash in hex would hold six digits by chance.
    public func contains(code: String) -> Bool {
        Self.find(Array(code.utf8), in: Array(dump.utf8), standingAlone: true)
            || Self.find(Array(code.utf8), in: bytes, standingAlone: true)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], standingAlone: Bool) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        let hex: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
        let first = needle[0]
        return (0...(haystack.count - needle.count)).contains { start in
            guard haystack[start] == first, haystack[start..<start + needle.count].elementsEqual(needle) else { return false }
            guard standingAlone else { return true }
            let end = start + needle.count
            return (start == 0 || !hex(haystack[start - 1])) && (end == haystack.count || !hex(haystack[end]))
        }
    }
}
