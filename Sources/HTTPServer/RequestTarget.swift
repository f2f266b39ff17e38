/// The path and query of a request target, percent-decoded and checked (RFC 9112 §3.2).
///
/// A path is never truncated or altered behind the handler's back: a control character, raw or
/// percent-encoded (`%00`, `%0A`, `%7F`…), or a malformed `%` is refused with `400` instead of
/// being decoded into something a C string or a log line would read differently.
struct RequestTarget {
    var path: String
    var query: [String: String]

    /// Decodes `bytes` (visible ASCII, as the request line checked): origin-form `/path?query`,
    /// absolute-form `http://host/path?query` (its path is used), or `*`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, maxQueryParameters: Int) -> Result<RequestTarget, HTTPRefusal> {
        var start = 0
        if bytes.count == 1, bytes[0] == 0x2A { return .success(RequestTarget(path: "*", query: [:])) }
        if bytes.first != 0x2F {
            guard let pathStart = absoluteFormPathStart(bytes) else { return .failure(.malformed(.target)) }
            start = pathStart
        }
        var end = start
        while end < bytes.count, bytes[end] != 0x3F, bytes[end] != 0x23 { end += 1 }
        if end < bytes.count, bytes[end] == 0x23 { return .failure(.malformed(.target)) }  // a fragment is never sent
        let path: String
        if start == end {
            path = "/"
        } else {
            guard let decoded = decodeComponent(UnsafeBufferPointer(rebasing: bytes[start..<end]), plusIsSpace: false) else {
                return .failure(.malformed(.target))
            }
            path = decoded
        }
        guard end < bytes.count else { return .success(RequestTarget(path: path, query: [:])) }
        return parseQuery(UnsafeBufferPointer(rebasing: bytes[(end + 1)...]), maxParameters: maxQueryParameters)
            .map { RequestTarget(path: path, query: $0) }
    }

    /// `name=value&…`, each part decoded with `+` as a space; a repeated name keeps its first value.
    private static func parseQuery(_ bytes: UnsafeBufferPointer<UInt8>, maxParameters: Int) -> Result<[String: String], HTTPRefusal> {
        if bytes.contains(0x23) { return .failure(.malformed(.target)) }
        var query: [String: String] = [:]
        var count = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x26 { end += 1 }
            if end > start {
                count += 1
                guard count <= maxParameters else { return .failure(.uriTooLong) }
                var equals = start
                while equals < end, bytes[equals] != 0x3D { equals += 1 }
                guard let name = decodeComponent(UnsafeBufferPointer(rebasing: bytes[start..<equals]), plusIsSpace: true),
                    let value = equals < end
                        ? decodeComponent(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusIsSpace: true) : ""
                else { return .failure(.malformed(.target)) }
                if query[name] == nil { query[name] = value }
            }
            start = end + 1
        }
        return .success(query)
    }

    /// Percent-decodes; `nil` for a malformed `%` or a decoded control character (C0 or DEL).
    static func decodeComponent(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        if !bytes.contains(0x25) && !(plusIsSpace && bytes.contains(0x2B)) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x25 {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                let value = high << 4 | low
                if value < 0x20 || value == 0x7F { return nil }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == 0x2B ? 0x20 : byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Where the path starts in `http://authority/path` (the end when there is no path), or `nil`
    /// when the target is neither that nor `https://…`.
    private static func absoluteFormPathStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var schemeEnd = 0
        while schemeEnd < bytes.count, bytes[schemeEnd] != 0x3A { schemeEnd += 1 }
        let scheme = bytes[0..<schemeEnd].map { $0 | 0x20 }
        guard scheme == Array("http".utf8) || scheme == Array("https".utf8), schemeEnd + 2 < bytes.count,
            bytes[schemeEnd + 1] == 0x2F, bytes[schemeEnd + 2] == 0x2F
        else { return nil }
        var index = schemeEnd + 3
        while index < bytes.count, bytes[index] != 0x2F, bytes[index] != 0x3F { index += 1 }
        return index
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
