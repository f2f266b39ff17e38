import CSodium

/// Argon2id password hashing that stores everything in one PHC string.
///
/// ```swift
/// let hasher = PasswordHasher()
/// let phc = try hasher.hash("correct horse")     // "$argon2id$v=19$m=19456,t=2,p=1$…"
/// hasher.verify("correct horse", against: phc)   // true
/// ```
/// Hashing is deliberately slow (about 18 ms at the defaults): keep it off event-loop threads.
public struct PasswordHasher: Sendable {
    /// The parameters this hasher hashes with, and which ``needsRehash(_:)`` compares against.
    public let parameters: Parameters

    /// Creates a hasher; the defaults follow OWASP's Argon2id minimum (19 MiB, 2 passes).
    public init(parameters: Parameters = .default) {
        self.parameters = parameters
    }

    /// Hashes the UTF-8 bytes of `password` with Argon2id and a fresh random salt.
    /// - Returns: a PHC string such as `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`.
    /// - Throws: ``SodiumError/invalidInput(_:)`` for parameters outside libsodium's limits,
    ///   ``SodiumError/hashingFailed`` if libsodium cannot hash (for example out of memory).
    public func hash(_ password: String) throws -> String {
        try Sodium.initializeOrThrow()
        try parameters.validate()
        var out = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let code = Self.withWipedUTF8(password) { bytes, count in
            crypto_pwhash_str_alg(
                &out, bytes, count, parameters.opsLimit, parameters.memoryLimit,
                crypto_pwhash_alg_argon2id13())
        }
        try Sodium.check(code, else: .hashingFailed)
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches the PHC string `phc`; `false` for any malformed `phc`.
    public func verify(_ password: String, against phc: String) -> Bool {
        Sodium.initialize()
        guard let phc = Self.plausiblePHC(phc) else { return false }
        let code = Self.withWipedUTF8(password) { bytes, count in
            crypto_pwhash_str_verify(phc, bytes, count)
        }
        return Sodium.succeeded(code)
    }

    /// Whether `phc` was made with other parameters (or another algorithm) than ``parameters``,
    /// so the password should be hashed again after a successful login. `true` if malformed.
    public func needsRehash(_ phc: String) -> Bool {
        Sodium.initialize()
        // libsodium answers "no" for an argon2i string with equal parameters; we want argon2id.
        guard let phc = Self.plausiblePHC(phc), phc.hasPrefix("$argon2id$") else { return true }
        let code = crypto_pwhash_str_needs_rehash(phc, parameters.opsLimit, parameters.memoryLimit)
        // 0: same parameters; 1: different; -1: malformed. Only 0 means "keep it".
        return !Sodium.succeeded(code)
    }
}

extension PasswordHasher {
    /// `phc` if it could be a libsodium PHC string, else `nil`.
    private static func plausiblePHC(_ phc: String) -> String? {
        // libsodium reads up to the first NUL and sizes buffers from strlen(), so reject what it
        // would silently truncate and anything longer than the longest string it ever writes.
        let bytes = phc.utf8
        guard bytes.count < crypto_pwhash_strbytes(), !bytes.contains(0) else { return nil }
        return phc
    }

    /// Runs `body` on a temporary copy of the UTF-8 bytes of `text`, zeroed afterwards.
    private static func withWipedUTF8<R>(
        _ text: String, _ body: (UnsafePointer<CChar>, UInt64) -> R
    ) -> R {
        // The caller's String cannot be wiped, but this copy can. It is NUL-terminated, so
        // never empty, and uniquely owned, so the zeroing reaches the bytes libsodium read.
        var bytes = text.utf8CString
        defer { bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress!, $0.count) } }
        return bytes.withUnsafeBufferPointer { buffer in
            body(buffer.baseAddress!, UInt64(buffer.count - 1))
        }
    }
}
