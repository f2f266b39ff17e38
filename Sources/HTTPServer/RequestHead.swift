#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The limits a request head is held to (from ``HTTPServerConfiguration``).
struct HeadLimits {
    var requestLine: Int
    var headerBytes: Int
    var headerCount: Int
}

/// Finds the end of a request head as its bytes arrive, remembering how far it looked, so a head
/// trickled in a byte at a time is not rescanned from its start each time. Refuses at once what
/// can never become a valid head: a bare LF, a request line or header block over its limit.
struct HeadScanner {
    /// The next byte to look at, from the start of the request.
    private(set) var position = 0
    private var lineStart = 0
    /// The offset of the LF that ends the request line, once seen.
    private(set) var requestLineEnd: Int?
    private var lines = 0

    enum Outcome: Equatable {
        case incomplete
        /// The head is `length` bytes, its empty line included.
        case complete(length: Int)
        case refused(HTTPRefusal)
    }

    mutating func reset() {
        self = HeadScanner()
    }

    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ limits: HeadLimits) -> Outcome {
        guard let base = bytes.baseAddress else { return .incomplete }
        var index = position
        while index < bytes.count {
            guard let found = memchr(base + index, 0x0A, bytes.count - index) else {
                index = bytes.count
                break
            }
            let lf = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // RFC 9112 §2.2: lines end in CRLF; a bare LF is refused rather than guessed at.
            guard lf > lineStart, bytes[lf - 1] == 0x0D else { return .refused(.malformed(.framing)) }
            if let requestLineEnd {
                if lf - 1 == lineStart { return .complete(length: lf + 1) }
                lines += 1
                if lines > limits.headerCount || lf + 1 - (requestLineEnd + 1) > limits.headerBytes {
                    return .refused(.headerFieldsTooLarge)
                }
            } else {
                if lf - 1 > limits.requestLine { return .refused(.uriTooLong) }
                requestLineEnd = lf
            }
            lineStart = lf + 1
            index = lf + 1
        }
        position = index
        if let requestLineEnd {
            if bytes.count - (requestLineEnd + 1) > limits.headerBytes + 2 { return .refused(.headerFieldsTooLarge) }
        } else if bytes.count > limits.requestLine + 2 {
            return .refused(.uriTooLong)
        }
        return .incomplete
    }
}

/// One header line's name and value, as offsets into the head.
struct FieldRange {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
}

/// A request head that passed every syntax rule, as offsets into its bytes.
struct RequestHead {
    var methodEnd = 0
    var targetStart = 0
    var targetEnd = 0
    /// 0 for HTTP/1.0, 1 for HTTP/1.1 (and later 1.x, served as 1.1).
    var minorVersion = 1
    var contentLength = 0
    var hasTransferEncoding = false
    var keepAlive = true
    var expectsContinue = false

    /// Parses and checks a complete head of `length` bytes whose request line ends (LF) at
    /// `requestLineEnd`, into this (fresh) value; `nil` when it passes, else why not. `fields` gets
    /// every header line in order, and what was parsed stays when the head is refused (up to the bad
    /// line), so a refusal can still use the path, `X-Request-Id` and `Accept-Language`.
    mutating func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, requestLineEnd: Int, length: Int, fields: inout [FieldRange]
    ) -> HTTPRefusal? {
        fields.removeAll(keepingCapacity: true)
        if let refusal = parseRequestLine(bytes, end: requestLineEnd - 1) { return refusal }
        var hosts = 0, lengths = 0
        var lineStart = requestLineEnd + 1
        while lineStart < length - 2 {
            var lineEnd = lineStart
            while bytes[lineEnd] != 0x0D || bytes[lineEnd + 1] != 0x0A { lineEnd += 1 }
            guard let field = Self.parseField(bytes, lineStart, lineEnd) else { return .malformed(.framing) }
            fields.append(field)
            switch Self.knownName(bytes, field) {
            case .host:
                hosts += 1
                guard Self.isValidHost(bytes, field) else { return .malformed(.host) }
            case .contentLength:
                lengths += 1
                guard lengths == 1, let value = Self.decimal(bytes, field) else { return .malformed(.contentLength) }
                contentLength = value
            case .transferEncoding:
                hasTransferEncoding = true
            case .connection:
                Self.forEachToken(bytes, field) { start, end in
                    if Self.equalsIgnoringCase(bytes, start, end, "close") {
                        keepAlive = false
                    } else if Self.equalsIgnoringCase(bytes, start, end, "keep-alive"), minorVersion == 0 {
                        sawKeepAlive = true
                    }
                }
            case .expect:
                expectsContinue = Self.equalsIgnoringCase(bytes, field.valueStart, field.valueEnd, "100-continue")
            case .other:
                break
            }
            lineStart = lineEnd + 2
        }
        // RFC 9112 §3.2: exactly one Host in HTTP/1.1 (at most one in 1.0).
        if hosts > 1 || (hosts == 0 && minorVersion == 1) { return .malformed(.host) }
        // RFC 9112 §6.1: both framings at once is how requests are smuggled.
        if hasTransferEncoding && lengths > 0 { return .malformed(.contentLength) }
        if minorVersion == 0 { keepAlive = keepAlive && sawKeepAlive }
        return nil
    }

    private var sawKeepAlive = false

    /// `method SP request-target SP HTTP/1.x`, with single spaces (RFC 9112 §3), ending before
    /// `end`; what parsed stays set when it fails.
    mutating func parseRequestLine(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> HTTPRefusal? {
        var index = 0
        while index < end, HTTPBytes.isTokenByte(bytes[index]) { index += 1 }
        guard index > 0, index < end, bytes[index] == 0x20 else { return .malformed(.framing) }
        methodEnd = index
        index += 1
        targetStart = index
        while index < end, bytes[index] != 0x20 {
            // Visible ASCII only: a control character, DEL or a raw non-ASCII byte has no place here.
            guard bytes[index] > 0x20, bytes[index] < 0x7F else { return .malformed(.target) }
            index += 1
        }
        guard index > targetStart, index < end else { return .malformed(.framing) }
        targetEnd = index
        index += 1
        // "HTTP/" DIGIT "." DIGIT and nothing after it.
        guard end - index == 8, bytes[index] == 0x48, bytes[index + 1] == 0x54, bytes[index + 2] == 0x54,
            bytes[index + 3] == 0x50, bytes[index + 4] == 0x2F, bytes[index + 6] == 0x2E,
            HTTPBytes.isDigit(bytes[index + 5]), HTTPBytes.isDigit(bytes[index + 7])
        else { return .malformed(.framing) }
        guard bytes[index + 5] == 0x31 else { return .versionNotSupported }
        minorVersion = bytes[index + 7] == 0x30 ? 0 : 1
        return nil
    }

    /// `field-name ":" OWS field-value OWS` with the value's bytes checked (RFC 9110 §5.5): no
    /// blanks before the colon, no folding, no control character but HTAB.
    private static func parseField(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> FieldRange? {
        var index = start
        while index < end, HTTPBytes.isTokenByte(bytes[index]) { index += 1 }
        guard index > start, index < end, bytes[index] == 0x3A else { return nil }
        let nameEnd = index
        index += 1
        while index < end, HTTPBytes.isBlank(bytes[index]) { index += 1 }
        let valueStart = index
        var valueEnd = index
        while index < end {
            let byte = bytes[index]
            guard HTTPBytes.isFieldValueByte(byte) else { return nil }
            if !HTTPBytes.isBlank(byte) { valueEnd = index + 1 }
            index += 1
        }
        return FieldRange(nameStart: start, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd)
    }

    private enum KnownName {
        case host, contentLength, transferEncoding, connection, expect, other
    }

    private static func knownName(_ bytes: UnsafeBufferPointer<UInt8>, _ field: FieldRange) -> KnownName {
        let start = field.nameStart, end = field.nameEnd
        switch end - start {
        case 4: return equalsIgnoringCase(bytes, start, end, "host") ? .host : .other
        case 6: return equalsIgnoringCase(bytes, start, end, "expect") ? .expect : .other
        case 10: return equalsIgnoringCase(bytes, start, end, "connection") ? .connection : .other
        case 14: return equalsIgnoringCase(bytes, start, end, "content-length") ? .contentLength : .other
        case 17: return equalsIgnoringCase(bytes, start, end, "transfer-encoding") ? .transferEncoding : .other
        default: return .other
        }
    }

    /// `1*DIGIT` that fits (at most 18 digits); no sign, blank, comma or second value.
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ field: FieldRange) -> Int? {
        let count = field.valueEnd - field.valueStart
        guard count > 0, count <= 18 else { return nil }
        var value = 0
        for index in field.valueStart..<field.valueEnd {
            guard HTTPBytes.isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        return value
    }

    /// `uri-host [ ":" port ]` (RFC 3986 reg-name or IP-literal); empty is allowed (RFC 9112 §3.2).
    private static func isValidHost(_ bytes: UnsafeBufferPointer<UInt8>, _ field: FieldRange) -> Bool {
        (field.valueStart..<field.valueEnd).allSatisfy { HTTPBytes.isHostByte(bytes[$0]) }
    }

    /// Calls `body` with each comma-separated token of a field value, blanks trimmed.
    private static func forEachToken(_ bytes: UnsafeBufferPointer<UInt8>, _ field: FieldRange, _ body: (Int, Int) -> Void) {
        var start = field.valueStart
        while start <= field.valueEnd {
            var end = start
            while end < field.valueEnd, bytes[end] != 0x2C { end += 1 }
            var tokenStart = start, tokenEnd = end
            while tokenStart < tokenEnd, HTTPBytes.isBlank(bytes[tokenStart]) { tokenStart += 1 }
            while tokenEnd > tokenStart, HTTPBytes.isBlank(bytes[tokenEnd - 1]) { tokenEnd -= 1 }
            if tokenEnd > tokenStart { body(tokenStart, tokenEnd) }
            start = end + 1
        }
    }

    /// Whether `bytes[start..<end]` is `lowercase` in any letter case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ lowercase: StaticString) -> Bool {
        guard end - start == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for offset in 0..<(end - start) {
            let byte = bytes[start + offset]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected[offset] { return false }
        }
        return true
    }
}

/// Byte classes of HTTP's grammar (RFC 9110 §5.6.2, §5.5).
enum HTTPBytes {
    /// `tchar`: what a method or a header name is made of.
    static func isTokenByte(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// VCHAR, obs-text, SP or HTAB: never NUL, CR, LF, another control character or DEL.
    static func isFieldValueByte(_ byte: UInt8) -> Bool { byte >= 0x20 ? byte != 0x7F : byte == 0x09 }

    /// What a `Host` value may hold: unreserved, sub-delims, `%`, `:`, `[` and `]` (RFC 3986).
    static func isHostByte(_ byte: UInt8) -> Bool { hostTable[Int(byte)] }

    private static let hostTable: [Bool] = (0..<256).map { byte in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x25, 0x3A, 0x5B, 0x5D: true
        default: false
        }
    }

    private static let tokenTable: [Bool] = (0..<256).map { byte in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }
}
