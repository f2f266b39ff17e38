/// Case-insensitive HTTP header list that keeps order and duplicates.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("Set-Cookie", "a=1")
/// headers["content-type"] // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header line: its name as given and its value.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the header `name` (compared case-insensitively), or `nil`.
    public subscript(_ name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the header `name` (compared case-insensitively), in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// The number of header lines.
    public var count: Int { fields.count }

    /// Whether a line of the header `name` (compared case-insensitively) is here.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Makes room for `count` lines in all, so that adding up to that many allocates nothing.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a header line, keeping any earlier lines of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every line of the header `name` with one line holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every line of the header `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Iterates the header lines in the order they were added.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    // Header names are ASCII tokens; comparing bytes avoids allocating lowercased copies.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        let a = lhs.utf8, b = rhs.utf8
        guard a.count == b.count else { return false }
        let compared = a.withContiguousStorageIfAvailable { left in
            b.withContiguousStorageIfAvailable { right in
                left.indices.allSatisfy { asciiLower(left[$0]) == asciiLower(right[$0]) }
            }
        }
        if let compared, let same = compared { return same }
        return zip(a, b).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }
}
