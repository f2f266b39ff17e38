import Foundation

extension UUID {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The lower-case 8-4-4-4-12 form (RFC 9562 asks for lower case on output).
    ///
    /// Made byte by byte: Foundation's `uuidString` goes through `snprintf` and then needs a
    /// `lowercased()`, which showed up in the profile of every request.
    package var lowercasedText: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var out = 0
                for (index, byte) in raw.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[out] = 0x2D
                        out += 1
                    }
                    buffer[out] = Self.hexDigits[Int(byte >> 4)]
                    buffer[out + 1] = Self.hexDigits[Int(byte & 0x0F)]
                    out += 2
                }
                return out
            }
        }
    }

    /// Parses the 8-4-4-4-12 hexadecimal form in either letter case, as `init(uuidString:)` does,
    /// without its `sscanf`.
    package init?(text: some StringProtocol) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed: Bool
        if let result = text.utf8.withContiguousStorageIfAvailable({ Self.parse($0, into: &bytes) }) {
            parsed = result
        } else {
            parsed = Array(text.utf8).withUnsafeBufferPointer { Self.parse($0, into: &bytes) }
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>, into bytes: inout uuid_t) -> Bool {
        guard text.count == 36 else { return false }
        return withUnsafeMutableBytes(of: &bytes) { target in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard text[position] == 0x2D else { return false }
                    position += 1
                }
                guard let high = nibble(text[position]), let low = nibble(text[position + 1]) else { return false }
                target[index] = high << 4 | low
                position += 2
            }
            return true
        }
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }
}

/// Every id the API writes is a lower-case UUID (RFC 9562 asks for lower case on output;
/// Foundation's `UUID` encodes itself in upper case). These overloads are the one place that
/// says so: the synthesized `Encodable` of a wire type in this package calls them for each of its
/// `UUID` and `UUID?` properties, so `Passkey`, `User`, `SessionInfo` and any type added later
/// write ``UUID/lowercasedText`` without an `encode(to:)` of their own, whatever encoder is used.
/// Decoding takes either case, as `UUID` does.
///
/// They cover ids encoded by name (keyed containers), which is how every id on the wire is
/// written; a bare `[UUID]` goes through `Array`'s own encoding and is not covered.
extension KeyedEncodingContainer {
    /// Writes `value` as its lower-case text.
    package mutating func encode(_ value: UUID, forKey key: Key) throws {
        try encode(value.lowercasedText, forKey: key)
    }

    /// Writes `value` as its lower-case text, or `null`.
    package mutating func encode(_ value: UUID?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    /// Writes `value` as its lower-case text, or nothing.
    package mutating func encodeIfPresent(_ value: UUID?, forKey key: Key) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }
}
