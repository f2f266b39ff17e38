import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A response parsed from raw bytes.
struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Speaks HTTP over a plain blocking socket, on a thread of its own so the cooperative pool (which
/// runs the server's handlers) is never blocked. Not on a GCD queue: on Linux the global queues and
/// the cooperative pool share their few threads, and a handful of blocked reads starved handlers.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `pieces` one after another and reads one response.
    static func exchange(port: Int, ipv6: Bool = false, _ pieces: [String]) async throws -> RawResponse {
        try await offloaded {
            let socket = try ipv6 ? connect6(port: port) : connect(port: port)
            defer { close(socket) }
            for piece in pieces { try send(socket, Array(piece.utf8)) }
            var pending: [UInt8] = []
            return try readResponse(socket, &pending)
        }
    }

    /// Sends `head`, reads the reply the server gives before taking any body, then offers `body`
    /// (a refused upload is never read, so that may fail).
    ///
    /// The reply is read first on purpose: a server that closes with unread bytes in its receive
    /// buffer sends a reset, which can discard a reply still unread on this side.
    static func refusedUpload(port: Int, head: String, body: [UInt8]) async throws -> RawResponse {
        try await offloaded {
            let socket = try connect(port: port)
            defer { close(socket) }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            try send(socket, Array(head.utf8))
            var pending: [UInt8] = []
            let reply = try readResponse(socket, &pending)
            // The server closes after refusing: EPIPE or ECONNRESET here is expected.
            try? send(socket, body)
            return reply
        }
    }

    /// Sends `bytes` in one write and reads `count` responses from the same connection.
    static func pipeline(port: Int, _ bytes: String, count: Int) async throws -> [RawResponse] {
        try await offloaded {
            let socket = try connect(port: port)
            defer { close(socket) }
            try send(socket, Array(bytes.utf8))
            var pending: [UInt8] = []
            return try (0..<count).map { _ in try readResponse(socket, &pending) }
        }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    static func canConnect(port: Int) async -> Bool {
        (try? await offloaded { close(try connect(port: port)) }) != nil
    }

    static func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// A connected socket to 127.0.0.1:`port`, from `source` (another loopback address such as
    /// `127.0.0.2`, which Linux routes without setup) when given.
    static func connect(port: Int, source: String? = nil, receiveTimeout: Int = 30) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(socket)
                throw Failure(description: "bind to \(source) failed: errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect failed: errno \(errno)")
        }
        return socket
    }

    private static func connect6(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket failed") }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(port).bigEndian
        address.sin6_addr = in6addr_loopback
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect failed: errno \(errno)")
        }
        return socket
    }

    static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    static func readResponse(_ socket: Int32, _ data: inout [UInt8]) throws -> RawResponse {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = data.firstRange(of: separator) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                let status = Int(lines[0].split(separator: " ")[1]) ?? 0
                let headers = lines.dropFirst().map { line -> (String, String) in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
                }
                let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
                if data.count - end.upperBound >= length {
                    let body = String(decoding: data[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
                    data.removeFirst(end.upperBound + length)
                    return RawResponse(status: status, headers: headers, body: body)
                }
            }
            let n = recv(socket, &buffer, buffer.count, 0)
            guard n > 0 else { throw Failure(description: "connection ended after \(data.count) bytes") }
            data.append(contentsOf: buffer[..<n])
        }
    }
}
