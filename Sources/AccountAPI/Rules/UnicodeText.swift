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
