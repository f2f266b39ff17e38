import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Everything a server sent back on one connection: its replies, and whether it then closed.
public struct RawConversation: Sendable {
    public var replies: [Reply]
    /// The server closed (or reset) the connection after its replies.
    public var closed: Bool
    /// Every byte received, as text, for failure messages.
    public var text: String

    /// Status lines received: a reply written twice shows as more than one.
    public var statusLines: Int { text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.") }.count }

    /// The only reply, or a failure naming what came instead.
    public func single() throws -> Reply {
        guard replies.count == 1, let reply = replies.first else {
            throw TestFailure("expected one reply, got \(replies.count) (closed: \(closed)): \(text)")
        }
        return reply
    }
}

extension RawHTTP {
    /// Sends `bytes` from `source` (a loopback address; 127.0.0.1 when nil), then reads until the
    /// server closes or `wait` seconds pass without a byte, and parses every reply that came.
    public static func converse(port: Int, _ bytes: [UInt8], source: String? = nil, wait: Int = 5) async throws -> RawConversation {
        try await onThread {
            let socket = try connect(port: port, source: source, receiveTimeout: wait)
            defer { close(socket) }
            try? send(socket, bytes)
            let (received, closed) = readAll(socket)
            return RawConversation(replies: parse(received, closed: closed), closed: closed, text: String(decoding: received, as: UTF8.self))
        }
    }

    /// `converse` with a text request.
    public static func converse(port: Int, _ request: String, source: String? = nil, wait: Int = 5) async throws -> RawConversation {
        try await converse(port: port, Array(request.utf8), source: source, wait: wait)
    }

    /// One request from `source` on a new connection, with the time from connect to reply.
    public static func timedExchange(port: Int, source: String, _ request: String, wait: Int = 5) async throws -> (Reply, Duration) {
        try await onThread {
            let started = ContinuousClock.now
            let socket = try connect(port: port, source: source, receiveTimeout: wait)
            defer { close(socket) }
            try send(socket, Array(request.utf8))
            var pending: [UInt8] = []
            let reply = try readReply(socket, &pending)
            return (reply, ContinuousClock.now - started)
        }
    }

    /// Sends `start`, then `rest` a byte at a time, `interval` apart, until the server answers or
    /// closes; what came back and how long it took.
    public static func trickle(
        port: Int, after start: String, _ rest: String, every interval: Duration
    ) async throws -> (reply: Reply?, text: String, elapsed: Duration) {
        try await onThread {
            let socket = try connect(port: port, receiveTimeout: 1)
            defer { close(socket) }
            setReceiveTimeout(socket, seconds: 0, microseconds: Int(interval.components.attoseconds / 1_000_000_000_000))
            let started = ContinuousClock.now
            try? send(socket, Array(start.utf8))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            for byte in Array(rest.utf8) {
                if Glibc.send(socket, [byte], 1, Int32(MSG_NOSIGNAL)) != 1 { break }
                let n = recv(socket, &buffer, buffer.count, 0)
                if n > 0 { received += buffer[..<n] }
                if n == 0 { break }
            }
            return (parse(received, closed: false).first, String(decoding: received, as: UTF8.self), ContinuousClock.now - started)
        }
    }

    /// Opens `count` connections from `source`, each sending the start of a request head that
    /// never ends; returns the sockets still open. Connections the server refused (reset or
    /// closed) are let go along the way, so the client side needs few descriptors.
    public static func holdHalfSent(port: Int, count: Int, source: String? = nil) async throws -> [Int32] {
        try await onThread {
            var sockets: [Int32] = []
            let head = Array("GET /held HTTP/1.1\r\nHost: x\r\n".utf8)
            for index in 0..<count {
                guard let socket = try? connect(port: port, source: source, receiveTimeout: 1) else { continue }
                if (try? send(socket, head)) == nil {
                    close(socket)
                    continue
                }
                sockets.append(socket)
                if index % 50 == 49 { sockets = keepOpen(sockets) }
            }
            return sockets
        }
    }

    /// How many of `sockets` the server has not closed (no end of stream, no reset, nothing sent).
    public static func stillOpen(_ sockets: [Int32]) -> Int { sockets.filter(isOpen).count }

    public static func closeAll(_ sockets: [Int32]) {
        for socket in sockets { close(socket) }
    }

    /// Raises this process's open-file limit, so a flood's sockets fit on a machine with a low default.
    public static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = min(limit.rlim_max, 16384)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// `sockets` without those the server closed or reset, which are closed here.
    private static func keepOpen(_ sockets: [Int32]) -> [Int32] {
        var open: [Int32] = []
        for socket in sockets {
            if isOpen(socket) { open.append(socket) } else { close(socket) }
        }
        return open
    }

    private static func isOpen(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Reads until the server closes (true) or the receive timeout passes (false).
    private static func readAll(_ socket: Int32) -> ([UInt8], Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n > 0 {
                received += buffer[..<n]
                continue
            }
            return (received, n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        }
    }
}
