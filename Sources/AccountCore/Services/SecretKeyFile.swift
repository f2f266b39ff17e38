import AccountAPI
import Foundation
import Sodium

/// The file `--secret-key-file` names: 32 random bytes that seal the database's secrets.
///
/// Three spellings are accepted, told apart by length: the 32 bytes themselves
/// (`head -c 32 /dev/urandom`), 64 hex digits (`openssl rand -hex 32`, and what
/// `account-server keys generate-secret-key` writes), or standard base64 (`openssl rand -base64
/// 32`); blanks and a line break around the text forms are ignored. Anything else is refused with
/// what was found, and so is a key of 32 equal bytes.
package enum SecretKeyFile {
    /// Files longer than this are not key files.
    package static let maximumSize = 4096

    /// Reads the key in `path`.
    /// - Returns: the key, and whether the file is open to other users (group or others may read,
    ///   write or run it), which the caller warns about.
    /// - Throws: ``SecretsError`` when the file cannot be read or does not hold a key.
    package static func read(_ path: String) throws -> (key: SecretBoxKey, looseMode: mode_t?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SecretsError.keyFileUnreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SecretsError.keyFileUnreadable(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw SecretsError.keyFileUnreadable(path: path, reason: "not a regular file") }
        var bytes = [UInt8](repeating: 0, count: maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw SecretsError.keyFileUnreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumSize, let key = parse(Array(bytes.prefix(count))) else {
            throw SecretsError.keyFileMalformed(path: path, size: count)
        }
        guard Set(key).count > 1 else { throw SecretsError.keyFileNotRandom(path: path) }
        let permissions = status.st_mode & 0o777
        return (try SecretBoxKey(bytes: key), permissions & 0o077 == 0 ? nil : permissions)
    }

    /// The 32 key bytes `contents` spells, or `nil`.
    package static func parse(_ contents: [UInt8]) -> [UInt8]? {
        if contents.count == 32 { return contents }
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = contents.firstIndex(where: { !blank($0) }), let last = contents.lastIndex(where: { !blank($0) }) else { return nil }
        let text = String(decoding: contents[first...last], as: UTF8.self)
        if text.utf8.count == 64, let bytes = Hex.decode(text) { return bytes }
        if text.utf8.count == 44, let data = Data(base64Encoded: text), data.count == 32 { return Array(data) }
        return nil
    }

    /// Writes a new random key to `path` as 64 hex digits and a line break, mode 0600, refusing to
    /// replace an existing file; returns the key.
    package static func generate(at path: String) throws -> SecretBoxKey {
        let key = SecretBoxKey.generate()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw errno == EEXIST ? SecretsError.keyFileExists(path: path) : SecretsError.keyFileUnwritable(path: path, reason: String(cString: strerror(errno)))
        }
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(path) }
        }
        let text = Array((Hex.encode(key.bytes) + "\n").utf8)
        // The mode given to open() passes through the umask; this one does not.
        guard fchmod(descriptor, 0o600) == 0,
            text.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == text.count,
            fsync(descriptor) == 0
        else { throw SecretsError.keyFileUnwritable(path: path, reason: String(cString: strerror(errno))) }
        done = true
        return key
    }
}
