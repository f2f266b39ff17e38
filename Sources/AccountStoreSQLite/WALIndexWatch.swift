import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells, without a system call or a lock, whether anyone may have committed to the database since
/// a moment the caller remembers: it reads the WAL-index header in the `-shm` file, mapped read-only.
///
/// SQLite keeps that header in shared memory for every connection of every process on the file
/// and rewrites it on each commit (its `iChange` counter, `mxFrame`, salts and checksums change), in
/// two copies written in turn so that a reader can tell a torn read (the file format's
/// "WAL-Index Format"). Two equal copies that also equal a header read earlier mean that nothing
/// was committed in between; anything else (a change, a torn read, no mapping) means "maybe", and
/// the caller asks SQLite itself (`PRAGMA data_version`, which takes file locks).
final class WALIndexWatch: @unchecked Sendable {
    /// The two copies of the 48-byte header, as read at one moment.
    struct Header: Equatable, Sendable {
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        static func == (a: Header, b: Header) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
                && a.words.3 == b.words.3 && a.words.4 == b.words.4 && a.words.5 == b.words.5
        }
    }

    private static let headerBytes = 48
    /// What is mapped: the first page, which holds the header. SQLite grows the file in 32 KiB
    /// regions and shrinks it only when no connection has it open (and this store keeps one open).
    private static let mappedBytes = 4096

    private let base: UnsafeRawPointer

    /// Maps the `-shm` file of the database at `databasePath`; `nil` when it cannot (no such file
    /// yet, shorter than a page, or the system refuses), and then every check goes to SQLite.
    init?(databasePath: String) {
        let descriptor = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= Self.mappedBytes else { return nil }
        guard let mapped = mmap(nil, Self.mappedBytes, PROT_READ, MAP_SHARED, descriptor, 0),
            mapped != MAP_FAILED
        else { return nil }
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), Self.mappedBytes)
    }

    /// The header now, or `nil` when the two copies differ (a commit is writing it).
    func current() -> Header? {
        let first = words(at: 0)
        // SQLite writes the second copy first and the first copy last, so reading them in the
        // other order sees them equal only when no write was under way between the two reads.
        atomicMemoryFence(ordering: .acquiring)
        let second = words(at: Self.headerBytes)
        return first == second ? first : nil
    }

    private func words(at offset: Int) -> Header {
        let p = base + offset
        return Header(words: (
            p.loadUnaligned(fromByteOffset: 0, as: UInt64.self), p.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            p.loadUnaligned(fromByteOffset: 16, as: UInt64.self), p.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
            p.loadUnaligned(fromByteOffset: 32, as: UInt64.self), p.loadUnaligned(fromByteOffset: 40, as: UInt64.self)))
    }
}
