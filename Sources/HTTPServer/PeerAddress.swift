#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection's peer IP address as 128 bits (IPv4 as IPv4-mapped IPv6), without the port.
struct PeerAddress: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    /// The address in `storage` (IPv4 or IPv6); all zero for another family.
    init(_ storage: sockaddr_storage) {
        var storage = storage
        (high, low) = withUnsafeBytes(of: &storage) { raw in
            switch Int32(raw.load(fromByteOffset: Self.familyOffset, as: sa_family_t.self)) {
            case AF_INET:
                let address = raw.load(as: sockaddr_in.self).sin_addr
                return (0, 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: address.s_addr)))
            case AF_INET6:
                let bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                return (Self.bigEndianWord(bytes[0..<8]), Self.bigEndianWord(bytes[8..<16]))
            default:
                return (0, 0)
            }
        }
    }

    /// Parses an IPv4 or IPv6 literal.
    init?(literal: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: v4.s_addr)))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        self.init(high: Self.bigEndianWord(bytes[0..<8]), low: Self.bigEndianWord(bytes[8..<16]))
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Whether this is an IPv4 address (or IPv4-mapped IPv6, which is the same peer).
    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// What the per-address cap counts: the address itself for IPv4, its /64 for IPv6, since one
    /// IPv6 host usually holds a whole /64 and could otherwise open connections from each address.
    var capKey: PeerAddress { isIPv4 ? self : PeerAddress(high: high, low: 0) }

    /// The address as text: `"127.0.0.1"`, `"::1"`.
    var text: String {
        if isIPv4 {
            let address = in_addr(s_addr: UInt32(truncatingIfNeeded: low).bigEndian)
            return withUnsafeBytes(of: address) { Self.format(AF_INET, $0.baseAddress!) }
        }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { raw in
            for index in 0..<8 {
                raw[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
                raw[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
            }
        }
        return withUnsafeBytes(of: address) { Self.format(AF_INET6, $0.baseAddress!) }
    }

    /// The port in `storage`, or 0.
    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        return withUnsafeBytes(of: &storage) { raw in
            switch Int32(raw.load(fromByteOffset: familyOffset, as: sa_family_t.self)) {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    #if canImport(Darwin)
    private static let familyOffset = 1  // after sa_len
    #else
    private static let familyOffset = 0
    #endif

    private static func bigEndianWord(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func format(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard inet_ntop(family, address, buffer.baseAddress, 64) != nil else { return "" }
            return String(cString: buffer.baseAddress!)
        }
    }
}
