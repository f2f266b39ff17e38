import AccountAPI
import AccountCore

/// Builders for the JSON Schema 2020-12 objects an OpenAPI 3.1 document holds.
enum Schema {
    /// A reference to `#/components/schemas/<name>`.
    static func ref(_ name: String, description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["$ref": .string("#/components/schemas/\(name)")]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// An object with `properties`, of which `required` must be present.
    static func object(_ properties: [String: JSONValue], required: [String] = [], description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { members["required"] = .array(required.map(JSONValue.string)) }
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// A string, optionally with a format, length bounds, a pattern or a fixed set of values.
    static func string(
        _ description: String? = nil, format: String? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, choices: [String]? = nil, nullable: Bool = false
    ) -> JSONValue {
        var members: [String: JSONValue] = ["type": nullable ? ["string", "null"] : "string"]
        if let description { members["description"] = .string(description) }
        if let format { members["format"] = .string(format) }
        if let minLength { members["minLength"] = .int(minLength) }
        if let maxLength { members["maxLength"] = .int(maxLength) }
        if let pattern { members["pattern"] = .string(pattern) }
        if let choices { members["enum"] = .array(choices.map(JSONValue.string)) }
        return .object(members)
    }

    /// An integer, optionally with a lower bound.
    static func integer(_ description: String? = nil, minimum: Int? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "integer"]
        if let description { members["description"] = .string(description) }
        if let minimum { members["minimum"] = .int(minimum) }
        return .object(members)
    }

    /// A boolean.
    static func boolean(_ description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "boolean"]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// An array of `items`.
    static func array(_ items: JSONValue, description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "array", "items": items]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// A value that is always `value` (JSON Schema `const`).
    static func constant(_ value: JSONValue, _ description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["const": value]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }
}
