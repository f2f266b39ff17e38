import AccountAPI
import AccountCore

/// An ``Endpoint`` of the contract table rendered as an OpenAPI Operation Object.
enum Operation {
    /// The Operation Object of `endpoint`: its replies, its error replies (``Endpoint/errorReplies``,
    /// each a reference to the shared reply of its status), its security, body and parameters.
    static func json(_ endpoint: Endpoint) -> JSONValue {
        var responses: [String: JSONValue] = [:]
        for reply in endpoint.replies {
            var object: [String: JSONValue] = [
                "description": .string(reply.description),
                "headers": ["X-Request-Id": ErrorResponses.ref("X-Request-Id")],
            ]
            if let body = reply.body {
                let (mediaType, schema) = content(body)
                object["content"] = [mediaType: ["schema": schema]]
            }
            responses[String(reply.status)] = .object(object)
        }
        for (status, description) in endpoint.errorReplies {
            guard let shared = ErrorCatalog.reply(status) else { continue }
            responses[String(status)] = ["$ref": .string("#/components/responses/\(shared.name)"), "description": .string(description)]
        }

        var operation: [String: JSONValue] = [
            "operationId": .string(endpoint.operationId), "tags": [.string(endpoint.tag)], "summary": .string(endpoint.summary),
            "responses": .object(responses),
        ]
        if let details = endpoint.details { operation["description"] = .string(details) }
        if endpoint.auth != .none { operation["security"] = [["bearer": []]] }
        if let request = endpoint.request {
            operation["requestBody"] = ["required": true, "content": ["application/json": ["schema": Schema.ref(request)]]]
        }
        if !endpoint.parameters.isEmpty { operation["parameters"] = .array(endpoint.parameters.map(parameter)) }
        return .object(operation)
    }

    /// The media type and schema of a reply's body.
    private static func content(_ body: Endpoint.Body) -> (String, JSONValue) {
        switch body {
        case .schema(let name): ("application/json", Schema.ref(name))
        case .anyObject: ("application/json", ["type": "object"])
        case .emptyObject: ("application/json", Schema.object([:]))
        case .text(let mediaType): (mediaType, Schema.string())
        }
    }

    /// The Parameter Object of `parameter`.
    private static func parameter(_ parameter: Endpoint.Parameter) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(parameter.name), "in": .string(parameter.location.rawValue), "required": .bool(parameter.required),
            "schema": schema(parameter.value),
        ]
        if let description = parameter.description { object["description"] = .string(description) }
        return .object(object)
    }

    private static func schema(_ value: Endpoint.Parameter.Value) -> JSONValue {
        switch value {
        case .string(let maxLength, let format, let choices, let defaultValue):
            let schema = Schema.string(format: format, maxLength: maxLength, choices: choices)
            return defaultValue.map { schema.merging(["default": .string($0)]) } ?? schema
        case .uuid: return FieldSchemas.uuid
        case .integer(let minimum, let maximum): return ["type": "integer", "minimum": .int(minimum), "maximum": .int(maximum)]
        }
    }
}
