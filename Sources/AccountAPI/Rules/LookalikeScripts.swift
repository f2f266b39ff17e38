/// The client's cheap share of UTS #39's script rule: Latin, Greek and Cyrillic letters hold the
/// most look-alikes (`а`/`a`, `ο`/`o`, `і`/`i`), and a name that mixes two of them is refused by
/// the server's "highly restrictive" check whatever else it holds.
///
/// Only code point ranges whose every letter and digit is of exactly that script (Script_Extensions,
/// checked against ICU by `UnicodeSecurityTests`) are listed, so a name this refuses the server
/// refuses too; names this lets through the server still checks in full (Hebrew, Thai, Cherokee…).
enum LookalikeScripts {
    enum Script: Equatable { case latin, greek, cyrillic }

    /// The script of `scalar` when it lies in a listed range, else `nil`.
    static func script(of scalar: Unicode.Scalar) -> Script? {
        let value = scalar.value
        for (script, ranges) in table where ranges.contains(where: { $0.contains(value) }) {
            return script
        }
        return nil
    }

    /// Whether `text` has letters of two of the listed scripts.
    static func mixes(_ text: String) -> Bool {
        var seen: Script?
        for scalar in text.unicodeScalars {
            guard let script = script(of: scalar) else { continue }
            if let seen, seen != script { return true }
            seen = script
        }
        return false
    }

    private static let table: [(Script, [ClosedRange<UInt32>])] = [
        (.latin, [
            0x41...0x5A, 0x61...0x7A, 0xAA...0xAA, 0xBA...0xBA, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2AF,
            0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xFF21...0xFF3A, 0xFF41...0xFF5A,
        ]),
        (.greek, [
            0x370...0x373, 0x376...0x377, 0x37B...0x37D, 0x37F...0x37F, 0x386...0x386, 0x388...0x3E1,
            0x3F0...0x3FF, 0x1F00...0x1FFF,
        ]),
        (.cyrillic, [0x400...0x481, 0x48A...0x52F, 0x1C80...0x1C88, 0xA640...0xA66E, 0xA680...0xA69D]),
    ]
}
