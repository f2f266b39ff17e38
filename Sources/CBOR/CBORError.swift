/// Why ``CBORDecoder`` refused its input. None of them says more than where the rule broke.
public enum CBORError: Error, Sendable, Equatable {
    /// The input ended inside an item.
    case truncated(at: Int)
    /// Bytes were left after the item.
    case trailingBytes(at: Int)
    /// Additional information 28–30 (reserved) or 31 (indefinite length: not allowed here).
    case unsupportedLength(at: Int)
    /// An argument not in its shortest form (CTAP2's canonical encoding requires it).
    case notShortest(at: Int)
    /// A tag, a float, `undefined` or another simple value: outside the WebAuthn subset.
    case unsupportedItem(at: Int)
    /// A text string that is not valid UTF-8.
    case invalidText(at: Int)
    /// A map key that is neither an integer nor text.
    case unsupportedKey(at: Int)
    /// A map key given twice.
    case duplicateKey(at: Int)
    /// Arrays and maps nested deeper than ``CBORDecoder/maximumDepth``.
    case tooDeep(at: Int)
    /// More items than ``CBORDecoder/maximumItems`` in one input.
    case tooManyItems(at: Int)
}
