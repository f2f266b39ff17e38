import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Requests that reach servers at the same moment, for races: every socket is connected first,
/// then all requests are written in one quick loop, then the replies are read in order.
///
/// URLSession starts its tasks milliseconds apart; this puts them within microseconds.
public enum Burst {
    /// One request of a burst, to the server on `port`.
    public struct Request: Sendable {
        public let port: Int
        public let text: String

        /// A request with a JSON body (from a dictionary of strings), an optional bearer token and
        /// other headers.
        public init(port: Int, _ method: String, _ path: String, json: [String: String]? = nil, token: String? = nil, headers: [String: String] = [:]) {
            self.port = port
            let body = json.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) } ?? ""
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
            if json != nil { head += "Content-Type: application/json\r\n" }
            if let token { head += "Authorization: Bearer \(token)\r\n" }
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            text = head + "\r\n" + body
        }
    }

    /// Sends every request at once and returns the replies in the same order.
    public static func send(_ requests: [Request], timeout: Int = 30) async throws -> [Reply] {
        // Blocking socket calls, so on a thread of their own rather than the tests' task pool.
        try await onThread { try sendBlocking(requests, timeout: timeout) }
    }

    private static func sendBlocking(_ requests: [Request], timeout: Int) throws -> [Reply] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for request in requests { sockets.append(try RawHTTP.connect(port: request.port, receiveTimeout: timeout)) }
        for (socket, request) in zip(sockets, requests) { try RawHTTP.send(socket, Array(request.text.utf8)) }
        return try sockets.map { socket in
            var pending: [UInt8] = []
            return try RawHTTP.readReply(socket, &pending)
        }
    }
}
