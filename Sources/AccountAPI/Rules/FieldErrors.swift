/// Field errors keyed by wire field name (`"username"`, `"password_confirmation"`, …), in rule order.
///
/// ```swift
/// var errors = FieldErrors()
/// errors.add(.tooShort, to: "password")
/// errors["password"]  // [.tooShort]
/// ```
public struct FieldErrors: Sendable, Equatable {
    /// The codes of each field that has at least one, in the order the rules found them.
    public private(set) var byField: [String: [FieldErrorCode]]

    /// No errors.
    public init() { byField = [:] }

    /// Whether no field has an error.
    public var isEmpty: Bool { byField.isEmpty }

    /// Appends `code` to `field`'s errors, unless the field already has it.
    public mutating func add(_ code: FieldErrorCode, to field: String) {
        var codes = byField[field, default: []]
        guard !codes.contains(code) else { return }
        codes.append(code)
        byField[field] = codes
    }

    /// Appends each of `codes` to `field`'s errors, in order; an empty list adds nothing.
    public mutating func add(contentsOf codes: [FieldErrorCode], to field: String) {
        for code in codes { add(code, to: field) }
    }

    /// The codes of `field`, empty when it has none.
    public subscript(field: String) -> [FieldErrorCode] {
        byField[field] ?? []
    }

    /// Adds every error of `other` after the ones already here.
    public mutating func merge(_ other: FieldErrors) {
        // Sorted so that merging is deterministic whatever the dictionary order is.
        for field in other.byField.keys.sorted() {
            add(contentsOf: other.byField[field] ?? [], to: field)
        }
    }
}
