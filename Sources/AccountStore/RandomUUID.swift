import Foundation

extension UUID {
    /// A random (version 4) id from the system's random generator: the ids of rows the server
    /// makes per request (sessions, security events, users, passkeys, mail).
    ///
    /// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` for every id; this
    /// takes its 122 random bits from `SystemRandomNumberGenerator` (the `getrandom` system call,
    /// no file descriptor), with the same layout.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        return UUID(version4Bits: (generator.next(), generator.next()))
    }

    /// The version 4 id made of `bits` (high word first), their version and variant bits replaced.
    public init(version4Bits bits: (UInt64, UInt64)) {
        var words = (bits.0.bigEndian, bits.1.bigEndian)
        self = withUnsafeMutableBytes(of: &words) { raw in
            raw[6] = raw[6] & 0x0F | 0x40  // version 4
            raw[8] = raw[8] & 0x3F | 0x80  // RFC 9562 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
