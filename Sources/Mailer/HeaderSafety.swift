extension Unicode.Scalar {
    /// Whether this scalar may not appear in a header value: C0/C1 controls (CR, LF, TAB, NUL…),
    /// DEL and the Unicode line and paragraph separators. Any of them could end a header early
    /// and let a caller smuggle in another one (`"Hi\r\nBcc: x"`).
    var isForbiddenInHeader: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

enum HeaderSafety {
    /// Returns `value` unchanged, or throws ``MailError/invalidHeader(_:)`` naming `header` when it
    /// holds a character that could break the header apart.
    static func checked(_ value: String, header: String) throws -> String {
        if value.unicodeScalars.contains(where: \.isForbiddenInHeader) {
            throw MailError.invalidHeader("\(header) contains a line break or control character")
        }
        return value
    }
}
