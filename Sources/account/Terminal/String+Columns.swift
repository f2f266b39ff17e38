/// Padding to terminal columns, where Hangul and other wide characters take two.
extension String {
    /// The columns this text takes on a terminal.
    var columns: Int {
        unicodeScalars.reduce(0) { width, scalar in width + (Self.isWide(scalar) ? 2 : 1) }
    }

    /// Pads on the right with spaces to `width` columns.
    func padded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - columns)) }

    /// Pads on the left with spaces to `width` columns.
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - columns)) + self }

    // Hangul Jamo, CJK, Hangul syllables and fullwidth forms: the wide ranges a Korean UI meets.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60, 0xFFE0...0xFFE6: true
        default: false
        }
    }
}
