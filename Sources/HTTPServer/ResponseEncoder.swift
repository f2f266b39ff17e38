#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a response's bytes: status line, the handler's headers, `Content-Length`, `Date`,
/// `Connection` when needed, and the body. One per event loop (it caches the `Date` text).
struct ResponseEncoder {
    private var dateSecond = -1
    private var dateLine: [UInt8] = []

    /// How the connection goes on after a response.
    struct Framing {
        /// The request was `HEAD`: the body is not sent, its length is.
        var isHead: Bool
        /// The connection closes after this response.
        var close: Bool
        /// An HTTP/1.0 client asked to keep the connection (it needs to hear `keep-alive` back).
        var keepAliveForHTTP10: Bool
    }

    /// Appends `response` to `buffer` and says whether the connection closes after it (as
    /// `framing` asks, or because the handler sent `Connection: close`). Header lines whose name
    /// or value hold CR, LF or NUL are dropped (they would split the response), as are the
    /// handler's own `Content-Length`, `Transfer-Encoding`, `Date` and `Connection`: the server
    /// writes those itself.
    mutating func encode(_ response: HTTPResponse, _ framing: Framing, into buffer: inout [UInt8]) -> Bool {
        let status = response.status
        var close = framing.close
        buffer.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status, to: &buffer)
        buffer.append(0x20)
        buffer.append(contentsOf: Self.reason(status).utf8)
        buffer.append(contentsOf: [0x0D, 0x0A])
        for (name, value) in response.headers {
            switch Self.ownHeader(name) {
            case .connection:
                close = close || Self.hasCloseToken(value)
                continue
            case .framing:
                continue
            case nil:
                break
            }
            if !Self.isSafe(name) || !Self.isSafe(value) { continue }
            buffer.append(contentsOf: name.utf8)
            buffer.append(contentsOf: [0x3A, 0x20])
            buffer.append(contentsOf: value.utf8)
            buffer.append(contentsOf: [0x0D, 0x0A])
        }
        let hasBody = !(status < 200 || status == 204 || status == 304)
        if hasBody {
            buffer.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &buffer)
            buffer.append(contentsOf: [0x0D, 0x0A])
        }
        appendDate(to: &buffer)
        if close {
            buffer.append(contentsOf: "Connection: close\r\n".utf8)
        } else if framing.keepAliveForHTTP10 {
            buffer.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        buffer.append(contentsOf: [0x0D, 0x0A])
        if hasBody && !framing.isHead { buffer.append(contentsOf: response.body) }
        return close
    }

    /// Whether a `Connection` value lists `close` (in any letter case).
    private static func hasCloseToken(_ value: String) -> Bool {
        value.utf8.split(separator: 0x2C).contains { token in
            let letters = token.filter { !HTTPBytes.isBlank($0) }
            return letters.count == 5 && zip(letters, "close".utf8).allSatisfy { $0 | 0x20 == $1 }
        }
    }

    private mutating func appendDate(to buffer: inout [UInt8]) {
        var now = time(nil)
        if now != dateSecond {
            dateSecond = now
            var parts = tm()
            gmtime_r(&now, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text =
                "Date: \(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
            dateLine = Array(text.utf8)
        }
        buffer.append(contentsOf: dateLine)
    }

    private func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &buffer) }
        buffer.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
    }

    /// The headers the server writes itself, whatever a handler sets.
    private enum OwnHeader {
        /// `Connection`: its `close` token is honoured, the line is not copied.
        case connection
        /// `Content-Length`, `Transfer-Encoding`, `Date`: dropped.
        case framing
    }

    /// Which of the server's own headers `name` is, if any; the length decides which name to
    /// compare, so most lines cost one comparison of two integers.
    private static func ownHeader(_ name: String) -> OwnHeader? {
        switch name.utf8.count {
        case 4: HTTPHeaders.sameName(name, "Date") ? .framing : nil
        case 10: HTTPHeaders.sameName(name, "Connection") ? .connection : nil
        case 14: HTTPHeaders.sameName(name, "Content-Length") ? .framing : nil
        case 17: HTTPHeaders.sameName(name, "Transfer-Encoding") ? .framing : nil
        default: nil
        }
    }

    /// Whether `text` holds no CR, LF or NUL; on its contiguous bytes, since stepping through the
    /// UTF-8 view's indices costs more than the rest of the encoding.
    private static func isSafe(_ text: String) -> Bool {
        let unsafe = { (byte: UInt8) in byte == 0x0D || byte == 0x0A || byte == 0x00 }
        return text.utf8.withContiguousStorageIfAvailable { !$0.contains(where: unsafe) } ?? !text.utf8.contains(where: unsafe)
    }

    /// The reason phrase of `status` (RFC 9110 §15).
    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
