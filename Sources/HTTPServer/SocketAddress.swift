#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 socket address built from a literal host and a port.
enum SocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// Parses `host` as an IPv4 or IPv6 literal; `nil` if it is neither or the port is out of range.
    init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        let networkPort = UInt16(port).bigEndian
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = networkPort
            #if canImport(Darwin)
            v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            self = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = networkPort
            #if canImport(Darwin)
            v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            self = .v6(v6)
            return
        }
        return nil
    }

    var isIPv6: Bool {
        if case .v6 = self { return true }
        return false
    }

    /// Calls `body` with a `sockaddr` pointer valid for the duration of the call.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        switch self {
        case .v4(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        case .v6(var address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }
}
