import AccountCore
/// Byte-level header parsing shared by the checks every request passes (the bearer token, the
/// body's media type): Foundation's trimming goes through UTF-16 and showed in the profiles.
enum HeaderBytes {
    /// A space or a horizontal tab, the blanks HTTP allows around header tokens.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `bytes` without leading and trailing blanks, or `nil` if they hold nothing else.
    ///
    /// The cuts fall next to blanks or at the ends, so they never split a character.
    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence? {
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return bytes[first...last]
    }

    /// Whether the bytes `text` are `lowercase` (ASCII) in any letter case.
    static func equalsIgnoringCase(_ text: some Sequence<UInt8>, _ lowercase: String) -> Bool {
        text.elementsEqual(lowercase.utf8) { byte, expected in
            (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected
        }
    }
}
