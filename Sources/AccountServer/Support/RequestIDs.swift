import AccountAPI
import Foundation
import Synchronization

/// Request ids the server makes for requests that came without one: UUID-shaped (version 4,
/// RFC 9562 variant), unique without a system call each.
///
/// `UUID()` reads the kernel's random source on every call, which showed in the profile of every
/// request. An id needs to be unique, not secret: 64 random bits fixed at start tell servers apart,
/// and a counter tells this server's requests apart.
enum RequestIDs {
    private static let prefix: UInt64 = .random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    /// The next id, like `1f0c93d2-7a41-4e5b-8000-00000000002a`.
    static func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var bytes = (prefix.bigEndian, count.bigEndian)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40  // version 4
            raw[8] = raw[8] & 0x3F | 0x80  // RFC 9562 variant; the counter keeps 62 bits
            let uuid = raw.load(as: uuid_t.self)
            return UUID(uuid: uuid).lowercasedText
        }
    }
}
