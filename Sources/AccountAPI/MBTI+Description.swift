extension MBTI: CustomStringConvertible {
    /// The type as the API writes it, upper case (`INTJ`): what `print` and interpolation show.
    public var description: String { rawValue }
}
