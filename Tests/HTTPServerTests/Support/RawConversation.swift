import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Everything a server sent back on one connection: its replies, and whether it then closed.
struct RawConversation {
    var responses: [RawResponse]
    /// The server closed (or reset) the connection after its replies.
    var closed: Bool
    /// Every byte received, as text, for failure messages.
    var text: String

    /// The only reply, or a failure naming what came instead.
    func single() throws -> RawResponse {
        guard responses.count == 1, let response = responses.first else {
            throw RawHTTP.Failure(description: "expected one reply, got \(responses.count) (closed: \(closed)): \(text)")
        }
        return response
    }
}

extension RawHTTP {
    /// Sends `bytes` from `source` (a loopback address; 127.0.0.1 when nil), then reads until the
    /// server closes or `wait` seconds pass without a byte, and parses every reply that came.
    static func converse(port: Int, _ bytes: [UInt8], source: String? = nil, wait: Int = 5) async throws -> RawConversation {
        try await offloaded {
            let socket = try connect(port: port, source: source, receiveTimeout: wait)
            defer { close(socket) }
            try? send(socket, bytes)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            var closed = false
            while true {
                let n = recv(socket, &buffer, buffer.count, 0)
                if n > 0 {
                    received += buffer[..<n]
                    continue
                }
                closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                break
            }
            var pending = received
            var responses: [RawResponse] = []
            while !pending.isEmpty, let response = try? readBuffered(&pending) { responses.append(response) }
            return RawConversation(responses: responses, closed: closed, text: String(decoding: received, as: UTF8.self))
        }
    }

    /// `converse` with a text request.
    static func converse(port: Int, _ request: String, source: String? = nil, wait: Int = 5) async throws -> RawConversation {
        try await converse(port: port, Array(request.utf8), source: source, wait: wait)
    }

    /// Opens `count` connections from `source`, each sending the start of a request head that
    /// never ends; returns the sockets still open. Connections the server refused (reset or
    /// closed) are let go along the way, so the client side needs few descriptors.
    static func holdHalfSent(port: Int, count: Int, source: String? = nil) async throws -> [Int32] {
        try await offloaded {
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

    /// How many of `sockets` the server has not closed (no end of stream, no reset, nothing sent).
    static func stillOpen(_ sockets: [Int32]) -> Int {
        sockets.filter(isOpen).count
    }

    static func closeAll(_ sockets: [Int32]) {
        for socket in sockets { close(socket) }
    }

    /// One request from `source` on a new connection, with the time from connect to reply.
    static func timedExchange(port: Int, source: String, _ request: String, wait: Int = 5) async throws -> (RawResponse, Duration) {
        try await offloaded {
            let clock = ContinuousClock()
            let started = clock.now
            let socket = try connect(port: port, source: source, receiveTimeout: wait)
            defer { close(socket) }
            try send(socket, Array(request.utf8))
            var pending: [UInt8] = []
            let response = try readResponse(socket, &pending)
            return (response, clock.now - started)
        }
    }

    /// Parses one reply from the front of `data`, removing it; throws when `data` holds no whole reply.
    private static func readBuffered(_ data: inout [UInt8]) throws -> RawResponse {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = data.firstRange(of: separator) else { throw Failure(description: "no whole head") }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard lines[0].hasPrefix("HTTP/1."), parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "not a status line: \(lines[0])")
        }
        let headers = lines.dropFirst().map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        guard data.count - end.upperBound >= length else { throw Failure(description: "short body") }
        let body = String(decoding: data[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
        data.removeFirst(end.upperBound + length)
        return RawResponse(status: status, headers: headers, body: body)
    }
}
