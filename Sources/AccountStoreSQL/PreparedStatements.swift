/// A connection's prepared statements by ``SQLStatement/slot``: finding one on every run is an
/// array index, not a hash of its text.
///
/// ```swift
/// if let handle = statements[statement] { return handle }
/// statements[statement] = try prepare(statement.text)
/// ```
public struct PreparedStatements<Prepared> {
    @usableFromInline var slots: [Prepared?] = []

    public init() {}

    /// The prepared form of `statement`, if this connection has one.
    @inlinable
    public subscript(statement: SQLStatement) -> Prepared? {
        get { statement.slot < slots.count ? slots[statement.slot] : nil }
        set {
            if statement.slot >= slots.count {
                slots.append(contentsOf: repeatElement(nil, count: statement.slot + 1 - slots.count))
            }
            slots[statement.slot] = newValue
        }
    }

    /// Forgets every statement and returns what was prepared (for a backend to free).
    public mutating func removeAll() -> [Prepared] {
        defer { slots = [] }
        return slots.compactMap { $0 }
    }
}
