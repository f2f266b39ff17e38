import Foundation

extension String {
    /// The text in Unicode NFC, the form every length rule counts in.
    var nfc: String { precomposedStringWithCanonicalMapping }

    /// The number of Unicode scalars, the unit every length rule counts.
    var scalarCount: Int { unicodeScalars.count }

    /// NFKC, case folded, NFKC again: equal for texts a reader can't tell apart by case or width.
    ///
    /// Folding can leave text that is no longer normalized (`ǰ` folds to `j` and a combining caron),
    /// hence the second NFKC.
    var caselessKey: String {
        precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is Default_Ignorable (Unicode's list of what renders as nothing when
    /// unsupported): zero-width spaces and joiners, bidi controls, the Hangul fillers U+115F,
    /// U+1160, U+3164 and U+FFA0, variation selectors, the soft hyphen, tags.
    var isInvisible: Bool { properties.isDefaultIgnorableCodePoint }
}
