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

/// POSIX file steps for ``FileCredentialStore``: a private folder and atomic, durable replacement.
enum PrivateFile {
    /// Creates `directory` with mode `0700` (its parents with the default mode) unless it exists.
    static func makeDirectory(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw CredentialStoreError.failed("cannot create \(parent.path): \(error.localizedDescription)")
        }
        // mkdir applies the mode at creation, so the folder is never readable by others.
        if mkdir(directory.path, 0o700) != 0, errno != EEXIST {
            throw failure("cannot create \(directory.path)")
        }
    }

    /// Writes `data` to a new `0600` temporary file beside `file`, flushes it, and renames it over `file`.
    static func replace(_ file: URL, with data: Data) throws {
        let directory = file.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.lastPathComponent)") }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try writeAll(data, to: descriptor)
            guard fsync(descriptor) == 0 else { throw failure("cannot flush the credentials file") }
            closed = true
            guard close(descriptor) == 0 else { throw failure("cannot close the credentials file") }
            guard rename(temporary.path, file.path) == 0 else { throw failure("cannot replace the credentials file") }
        } catch {
            unlink(temporary.path)
            throw error
        }
        syncDirectory(directory)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot write the credentials file")
                }
                offset += written
            }
        }
    }

    /// Flushes the folder so the rename itself survives a crash; best effort (not every system allows it).
    private static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ what: String) -> CredentialStoreError {
        .failed("\(what): \(String(cString: strerror(errno)))")
    }
}
