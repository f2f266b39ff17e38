/// One documented operation (method and path), rendered as an OpenAPI Operation Object.
struct Operation {
    /// A success reply: status, description, and a body schema and media type if it has a body.
    struct Success {
        let status: Int
        let description: String
        var schema: JSONValue?
        var mediaType = "application/json"
    }

    let method: String
    let path: String
    let id: String
    let tag: String
    let summary: String
    var description: String?
    var authenticated = false
    /// The name of the request body schema in `#/components/schemas`.
    var body: String?
    var parameters: [JSONValue] = []
    let successes: [Success]
    /// Error statuses with what they mean for this operation.
    var errors: [Int: String] = [:]

    /// The Operation Object.
    var json: JSONValue {
        var responses: [String: JSONValue] = [:]
        for success in successes {
            var reply: [String: JSONValue] = [
                "description": .string(success.description),
                "headers": ["X-Request-Id": ErrorResponses.ref("X-Request-Id")],
            ]
            if let schema = success.schema { reply["content"] = [success.mediaType: ["schema": schema]] }
            responses[String(success.status)] = .object(reply)
        }
        var errors = errors
        if authenticated, errors[401] == nil { errors[401] = "The access token is missing, invalid or expired, or its session ended." }
        if body != nil {
            errors[400] = errors[400] ?? "`invalid_request`: the body is not a JSON object of the right field types."
            errors[411] = errors[411] ?? "`length_required`: a chunked body."
            errors[413] = errors[413] ?? "`payload_too_large`."
            errors[415] = errors[415] ?? "`unsupported_media_type`."
            errors[422] = errors[422] ?? "`validation_failed`: see `errors`."
        }
        // Any request: refused by the HTTP layer before it is routed.
        errors[400] = errors[400] ?? "`invalid_request`: the request is not well-formed HTTP/1.1."
        errors[408] = errors[408] ?? "`request_timeout`."
        errors[414] = errors[414] ?? "`uri_too_long`."
        errors[431] = errors[431] ?? "`header_fields_too_large`."
        if path.hasPrefix("/auth/"), errors[429] == nil { errors[429] = "`rate_limited`: too many auth requests from this address." }
        errors[500] = errors[500] ?? "`internal_error`."
        for (status, description) in errors {
            guard let name = ErrorResponses.names[status] else { continue }
            responses[String(status)] = ["$ref": .string("#/components/responses/\(name)"), "description": .string(description)]
        }

        var operation: [String: JSONValue] = [
            "operationId": .string(id), "tags": [.string(tag)], "summary": .string(summary), "responses": .object(responses),
        ]
        if let description { operation["description"] = .string(description) }
        if authenticated { operation["security"] = [["bearer": []]] }
        if let body {
            operation["requestBody"] = ["required": true, "content": ["application/json": ["schema": Schema.ref(body)]]]
        }
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        return .object(operation)
    }
}
