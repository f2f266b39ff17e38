import Foundation

/// Writes a file so that readers see either nothing or all of it, and it survives a crash; the
/// file (and its temporary file) is mode `0600` whatever the umask.
enum AtomicFile {
    /// Writes `data` to a hidden temporary file next to `url`, fsyncs it, renames it onto `url`
    /// and fsyncs the folder so the rename itself is durable.
    /// - Throws: ``MailError/deliveryFailed(_:)`` with the failing step and the system's reason.
    static func save(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        // A dot name without the .eml suffix: a reader globbing *.eml never picks it up.
        let temporary = folder + "/." + url.lastPathComponent + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }

        do {
            // The mode given to open() passed through the umask; this one does not.
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("chmod", temporary) }
            try writeAll(data, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw failure("fsync", temporary) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure("close", temporary) }
        guard rename(temporary, url.path) == 0 else { throw failure("rename", url.path) }
        renamed = true

        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            defer { close(folderDescriptor) }
            guard fsync(folderDescriptor) == 0 else { throw failure("fsync", folder) }
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", path)
                }
                offset += written
            }
        }
    }

    private static func failure(_ step: String, _ path: String) -> MailError {
        .deliveryFailed("\(step) \(path): \(String(cString: strerror(errno)))")
    }
}
