import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Speaks HTTP/1.1 over a plain blocking socket, for what URLSession will not send or show
/// (a `Content-Length` without its body, pipelining, half-sent heads, a reply written twice).
///
/// Every exchange runs on a thread of its own (``onThread(_:)``), so the cooperative pool, which
/// runs the tests and the in-process servers' handlers, is never blocked.
public enum RawHTTP {
    /// Sends `pieces` one after another on a new connection and reads one reply.
    public static func exchange(port: Int, ipv6: Bool = false, _ pieces: [String], wait: Int = 30) async throws -> Reply {
        try await onThread {
            let socket = try ipv6 ? connect6(port: port, receiveTimeout: wait) : connect(port: port, receiveTimeout: wait)
            defer { close(socket) }
            for piece in pieces { try send(socket, Array(piece.utf8)) }
            var pending: [UInt8] = []
            return try readReply(socket, &pending)
        }
    }

    /// Sends `head`, reads the reply the server gives before taking any body, then offers `body`
    /// (a refused upload is never read, so that may fail).
    ///
    /// The reply is read first on purpose: a server that closes with unread bytes in its receive
    /// buffer sends a reset, which can discard a reply still unread on this side.
    public static func refusedUpload(port: Int, head: String, body: [UInt8]) async throws -> Reply {
        try await onThread {
            let socket = try connect(port: port)
            defer { close(socket) }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            try send(socket, Array(head.utf8))
            var pending: [UInt8] = []
            let reply = try readReply(socket, &pending)
            // The server closes after refusing: EPIPE or ECONNRESET here is expected.
            try? send(socket, body)
            return reply
        }
    }

    /// Sends `bytes` in one write and reads `count` replies from the same connection.
    public static func pipeline(port: Int, _ bytes: String, count: Int) async throws -> [Reply] {
        try await onThread {
            let socket = try connect(port: port)
            defer { close(socket) }
            try send(socket, Array(bytes.utf8))
            var pending: [UInt8] = []
            return try (0..<count).map { _ in try readReply(socket, &pending) }
        }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func canConnect(port: Int) async -> Bool {
        (try? await onThread { close(try connect(port: port)) }) != nil
    }

    /// A connected socket to 127.0.0.1:`port`, from `source` (another loopback address such as
    /// `127.0.0.2`, which Linux routes without setup) when given; reads give up after
    /// `receiveTimeout` seconds. The caller closes it.
    public static func connect(port: Int, source: String? = nil, receiveTimeout: Int = 30) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        setReceiveTimeout(socket, seconds: receiveTimeout)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(socket)
                throw TestFailure("bind to \(source) failed: errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return try connected(socket, to: address, port: port)
    }

    private static func connect6(port: Int, receiveTimeout: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        setReceiveTimeout(socket, seconds: receiveTimeout)
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(port).bigEndian
        address.sin6_addr = in6addr_loopback
        return try connected(socket, to: address, port: port)
    }

    /// `socket` connected to `address` (a `sockaddr_in` or `sockaddr_in6`); closed when it fails.
    private static func connected<Address>(_ socket: Int32, to address: Address, port: Int) throws -> Int32 {
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw TestFailure("connect to port \(port) failed: errno \(errno)")
        }
        return socket
    }

    static func setReceiveTimeout(_ socket: Int32, seconds: Int, microseconds: Int = 0) {
        var timeout = timeval(tv_sec: seconds, tv_usec: microseconds)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes` to `socket`.
    public static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send failed after \(sent) of \(bytes.count) bytes: errno \(errno)") }
            sent += n
        }
    }

    /// Reads one whole reply from `socket`; `pending` holds bytes read past it (the next
    /// pipelined reply) between calls.
    public static func readReply(_ socket: Int32, _ pending: inout [UInt8]) throws -> Reply {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let (reply, used) = parseOne(pending[...]) {
                pending.removeFirst(used)
                return reply
            }
            let n = recv(socket, &buffer, buffer.count, 0)
            guard n > 0 else {
                throw TestFailure("no whole HTTP reply; the connection ended or went quiet after: \(String(decoding: pending, as: UTF8.self))")
            }
            pending.append(contentsOf: buffer[..<n])
        }
    }

    /// Every whole reply in `bytes`, in order; after a server closed (`closed`), a last reply
    /// without `Content-Length` runs to the end.
    static func parse(_ bytes: [UInt8], closed: Bool) -> [Reply] {
        var replies: [Reply] = []
        var rest = bytes[...]
        while let (reply, used) = parseOne(rest, toEnd: closed) {
            replies.append(reply)
            rest = rest.dropFirst(used)
        }
        return replies
    }

    /// The reply at the front of `bytes` and how many bytes it took; `nil` while incomplete.
    private static func parseOne(_ bytes: ArraySlice<UInt8>, toEnd: Bool = false) -> (Reply, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.firstRange(of: separator) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard lines[0].hasPrefix("HTTP/1."), parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let fields = lines.dropFirst().compactMap { line -> Reply.Field? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return Reply.Field(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let declared = fields.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
        let available = bytes.distance(from: end.upperBound, to: bytes.endIndex)
        let length = declared ?? (toEnd ? available : 0)
        guard available >= length else { return nil }
        let bodyEnd = bytes.index(end.upperBound, offsetBy: length)
        return (Reply(status: status, fields: fields, body: Data(bytes[end.upperBound..<bodyEnd])), bytes.distance(from: bytes.startIndex, to: bodyEnd))
    }
}
