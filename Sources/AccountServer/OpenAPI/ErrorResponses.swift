import AccountAPI
import AccountCore

/// The shared error replies (`#/components/responses/…`, from the catalog) and reply headers (`#/components/headers/…`).
enum ErrorResponses {
    /// The shared reply of each error status in ``ErrorCatalog/replies``, by its component name.
    static var all: [String: JSONValue] {
        var replies: [String: JSONValue] = [:]
        for reply in ErrorCatalog.replies {
            replies[reply.name] = response(reply.description, extra: Dictionary(uniqueKeysWithValues: reply.headers.map { ($0, ref($0)) }))
        }
        return replies
    }

    static var headers: [String: JSONValue] {
        [
            "X-Request-Id": [
                "description": "The client's `X-Request-Id` when it is 1–128 letters, digits or `-_.:`, else a new UUID. On every reply.",
                "schema": Schema.string(maxLength: 128),
            ],
            "Retry-After": ["description": "Seconds to wait before trying again.", "schema": Schema.integer(minimum: 1)],
            "Allow": ["description": "The methods the path answers, comma-separated.", "schema": Schema.string()],
            "WWW-Authenticate": ["description": "`Bearer error=\"invalid_token\"` (RFC 6750).", "schema": Schema.string()],
        ]
    }

    /// A reference to a shared header.
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/headers/\(name)")] }

    private static func response(_ description: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        [
            "description": .string(description),
            "headers": .object(extra.merging(["X-Request-Id": ref("X-Request-Id")]) { first, _ in first }),
            "content": ["application/problem+json": ["schema": Schema.ref("Problem")]],
        ]
    }
}
