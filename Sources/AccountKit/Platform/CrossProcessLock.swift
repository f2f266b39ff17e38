import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A lock that processes share: an exclusive `flock` on one file, which every process that uses
/// the same file waits for. ``SessionManager`` holds its store's lock (``CredentialStore/sharedLock``)
/// around "read the store again → refresh → write the store", so an app and its extension never
/// trade the same refresh token (the server would take the second use as theft and end the session).
///
/// On Linux ``FileCredentialStore`` has one beside its file by itself. On Apple platforms the file
/// must sit where the app and its extensions both reach it: the App Group's shared container
/// (``appGroup(_:fileName:)``), given to ``KeychainCredentialStore/init(service:accessGroup:accessibility:sharedLock:refreshTokenProtection:readOnly:)`` (or `appGroup:` of `.platformDefault`).
///
/// The kernel lets go of the lock when its holder ends, even by a crash. Waiting does not hold a
/// thread: the lock is tried every few milliseconds, for at most ``timeout`` seconds.
///
/// ```swift
/// import Foundation
/// let lock = CrossProcessLock(fileURL: URL(fileURLWithPath: "/tmp/example.lock"))
/// let answer = try await lock.withLock { 42 }
/// ```
public final class CrossProcessLock: Sendable {
    /// The lock file; created (`0600`, its folder `0700`) on first use, never removed.
    public let fileURL: URL
    /// Seconds to wait for another process to let go before giving up.
    public let timeout: TimeInterval
    let operations: LockFileOperations

    /// A lock on `fileURL`.
    /// - Parameters:
    ///   - fileURL: the lock file; every process that shares the session must name the same one.
    ///   - timeout: seconds to wait for another holder (30 by default; a refresh takes far less).
    public convenience init(fileURL: URL, timeout: TimeInterval = 30) {
        self.init(fileURL: fileURL, timeout: timeout, operations: .live)
    }

    init(fileURL: URL, timeout: TimeInterval, operations: LockFileOperations) {
        self.fileURL = fileURL
        self.timeout = timeout
        self.operations = operations
    }

    /// Runs `body` while holding the lock, and lets go after it (also when it throws).
    /// - Throws: ``CredentialStoreError/failed(_:)`` when the file cannot be opened or locked, or
    ///   another holder kept it past ``timeout``; else what `body` throws.
    public func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let held = try await acquire()
        defer { operations.release(held) }
        return try await body()
    }

    /// Opens the file and takes the lock, trying again every 5 ms until ``timeout``.
    private func acquire() async throws -> LockFileOperations.Handle {
        let handle = try operations.open(fileURL)
        let deadline = Date().addingTimeInterval(timeout)
        do {
            while try !operations.tryLock(handle) {
                guard Date() < deadline else {
                    throw CredentialStoreError.failed("another process held the session lock for \(Int(timeout)) s")
                }
                try await Task.sleep(nanoseconds: 5_000_000)
            }
        } catch {
            operations.close(handle)
            throw error
        }
        return handle
    }
}

#if canImport(Darwin)
extension CrossProcessLock {
    /// A lock in the shared container of the App Group `identifier` (`group.com.example.mbti`),
    /// which the app and its extensions all reach; `nil` when this process is not in that group
    /// (its entitlement is missing).
    /// - Parameters:
    ///   - identifier: the App Group, as in the target's App Groups entitlement.
    ///   - fileName: the lock file's name in the container.
    public static func appGroup(_ identifier: String, fileName: String = "AccountKit-session.lock") -> CrossProcessLock? {
        guard let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier) else { return nil }
        return CrossProcessLock(fileURL: folder.appendingPathComponent(fileName))
    }
}
#endif

/// The system calls of ``CrossProcessLock``, as closures so that its waiting and cleaning up are
/// tested with a fake; `live` is `FileHandle` and `flock`.
struct LockFileOperations: Sendable {
    /// An open lock file.
    typealias Handle = FileHandle
    /// Opens (creating it private if need be) the lock file.
    var open: @Sendable (URL) throws -> Handle
    /// Takes the lock without waiting: `true` when held now, `false` when another holds it.
    var tryLock: @Sendable (Handle) throws -> Bool
    /// Lets go of the lock and closes the file.
    var release: @Sendable (Handle) -> Void
    /// Closes a file whose lock was not taken.
    var close: @Sendable (Handle) -> Void

    static let live = LockFileOperations(
        open: { url in
            try PrivateFile.makeDirectory(url.deletingLastPathComponent())
            // Created and opened in one call: a separate "create if missing" could replace a
            // file another holder has just locked (FileManager writes a new file and renames it),
            // and the two would then lock different files.
            let descriptor = url.withUnsafeFileSystemRepresentation { path in
                path.map { Foundation.open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) } ?? -1
            }
            guard descriptor >= 0 else {
                throw CredentialStoreError.failed("cannot open the session lock file (errno \(errno))")
            }
            return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        },
        tryLock: { handle in
            while true {
                if flock(handle.fileDescriptor, LOCK_EX | LOCK_NB) == 0 { return true }
                let code = errno
                if code == EINTR { continue }
                if code == EWOULDBLOCK { return false }
                throw CredentialStoreError.failed("cannot lock the session lock file (errno \(code))")
            }
        },
        release: { handle in
            _ = flock(handle.fileDescriptor, LOCK_UN)
            try? handle.close()
        },
        close: { handle in try? handle.close() }
    )
}
