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
            guard let lineEnd = Self.lineEnd(bytes, from: lineStart, before: length) else { return .malformed(.framing) }
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
        guard HTTPBytes.areFieldValueBytes(bytes, valueStart, end) else { return nil }
        var valueEnd = end
        while valueEnd > valueStart, HTTPBytes.isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
        return FieldRange(nameStart: start, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd)
    }

    /// Where the line starting at `start` ends: the offset of the first CR followed by LF before
    /// `limit` (found with `memchr`), or `nil`.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var from = start
        while from < limit - 1 {
            guard let found = memchr(base + from, 0x0D, limit - 1 - from) else { return nil }
            let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if bytes[offset + 1] == 0x0A { return offset }
            from = offset + 1
        }
        return nil
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
    static func isTokenByte(_ byte: UInt8) -> Bool { inSet(byte, low: tokenLow, high: tokenHigh) }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// VCHAR, obs-text, SP or HTAB: never NUL, CR, LF, another control character or DEL.
    static func isFieldValueByte(_ byte: UInt8) -> Bool { byte >= 0x20 ? byte != 0x7F : byte == 0x09 }

    /// Whether every byte in `start..<end` is ``isFieldValueByte(_:)``: eight at a time, with a
    /// byte-by-byte look only at a word holding a control character (a tab) or DEL.
    static func areFieldValueBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // A byte's high bit is set where it is below 0x20 (or equal to 0x7F): the usual
                // "has a byte less than n" test, exact for a whole word being clear.
                let control = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
                let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
                let deletes = (delete &- 0x0101_0101_0101_0101) & ~delete & 0x8080_8080_8080_8080
                if control | deletes != 0 {
                    for offset in index..<(index + 8) where !isFieldValueByte(bytes[offset]) { return false }
                }
                index += 8
            }
        }
        while index < end {
            guard isFieldValueByte(bytes[index]) else { return false }
            index += 1
        }
        return true
    }

    /// What a `Host` value may hold: unreserved, sub-delims, `%`, `:`, `[` and `]` (RFC 3986).
    static func isHostByte(_ byte: UInt8) -> Bool { inSet(byte, low: hostLow, high: hostHigh) }

    // Byte sets as bit masks over ASCII (bit n of `low` is byte n, of `high` byte 64 + n):
    // constants, so a check is a shift and no table's lazy start-up. Tests compare them with the
    // grammar's lists.
    /// `tchar`: digits, letters and ``!#$%&'*+-.^_`|~``.
    static let tokenLow: UInt64 = 0x03FF_6CFA_0000_0000
    static let tokenHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE
    /// Host bytes: digits, letters, `-._~!$&'()*+,;=%:[]`.
    static let hostLow: UInt64 = 0x2FFF_7FF2_0000_0000
    static let hostHigh: UInt64 = 0x47FF_FFFE_AFFF_FFFE

    private static func inSet(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        byte < 0x40 ? (low >> UInt64(byte)) & 1 == 1 : byte < 0x80 && (high >> UInt64(byte - 0x40)) & 1 == 1
    }
}
