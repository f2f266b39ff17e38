import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw TCP exchange, for what URLSession will not send (a `Content-Length` without its body).
enum RawHTTP {
    /// Connects to `127.0.0.1:port`, writes `request`, and reads until the server closes or a whole
    /// reply (headers plus `Content-Length` bytes) arrived; gives up after `timeout` seconds.
    static func exchange(port: Int, request: String, timeout: Int = 10) throws -> Reply {
        let fd = try connectedSocket(port: port, timeout: timeout)
        defer { close(fd) }
        try write(request, to: fd)
        return try reply(from: fd, timeout: timeout)
    }

    /// A socket connected to `127.0.0.1:port` whose reads give up after `timeout` seconds; the
    /// caller closes it.
    static func connectedSocket(port: Int, timeout: Int = 10) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect to port \(port) failed: errno \(errno)")
        }
        return fd
    }

    /// Writes all of `request` to `fd`.
    static func write(_ request: String, to fd: Int32) throws {
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw TestFailure("send wrote \(sent) of \(bytes.count) bytes") }
    }

    /// Reads one reply from `fd`: until the server closes or a whole reply arrived.
    static func reply(from fd: Int32, timeout: Int = 10) throws -> Reply {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
            if let reply = parse(received) { return reply }
        }
        guard let reply = parse(received, closed: true) else {
            throw TestFailure("no whole HTTP reply within \(timeout) s: \(String(decoding: received, as: UTF8.self))")
        }
        return reply
    }

    /// A reply from the bytes so far, or `nil` while incomplete.
    private static func parse(_ bytes: [UInt8], closed: Bool = false) -> Reply? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...max(0, bytes.count - 4)).first(where: { bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator }) else {
            return nil
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.hasPrefix("HTTP/1."),
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init) {
            guard body.count >= length else { return nil }
            return Reply(status: status, headers: headers, body: Data(body[..<length]))
        }
        return closed ? Reply(status: status, headers: headers, body: Data(body)) : nil
    }
}
