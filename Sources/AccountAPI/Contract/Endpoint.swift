/// One operation of the account API: its method and path, what it takes and answers, and who may
/// call it. ``Endpoint/all`` is the whole contract; the server serves `/openapi.json` from it,
/// its router answers exactly these, and AccountKit's client sends its requests by them.
///
/// ```swift
/// Endpoint.logIn.method   // .post
/// Endpoint.logIn.path     // "/auth/login"
/// Endpoint.revokeSession.path(id: "3f2c…")  // "/auth/sessions/3f2c…"
/// ```
public struct Endpoint: Sendable, Hashable {
    /// An HTTP method the API answers.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET", post = "POST", patch = "PATCH", delete = "DELETE"
    }

    /// Who may call an endpoint.
    public enum Auth: Sendable, Hashable {
        /// Anyone: no token.
        case none
        /// A signed-in account: `Authorization: Bearer <access token>`.
        case bearer
        /// An operator: a bearer token of an admin account whose session was opened with a second factor.
        case `operator`
    }

    /// The body of a success reply.
    public enum Body: Sendable, Hashable {
        /// JSON of the schema with this name (`#/components/schemas/<name>`).
        case schema(String)
        /// Any JSON object.
        case anyObject
        /// An empty JSON object (`{}`).
        case emptyObject
        /// Text of this media type (`text/plain`).
        case text(mediaType: String)
    }

    /// A success reply: its status, what it means, and its body if it has one.
    public struct Reply: Sendable, Hashable {
        public let status: Int
        public let description: String
        public let body: Body?

        public init(status: Int, description: String, body: Body? = nil) {
            self.status = status
            self.description = description
            self.body = body
        }
    }

    /// A parameter in the query or the path.
    public struct Parameter: Sendable, Hashable {
        /// Where the parameter goes.
        public enum Location: String, Sendable, Hashable { case query, path }

        /// The values a parameter takes.
        public enum Value: Sendable, Hashable {
            /// A string, optionally bounded, of a format, or one of `choices` (with a default).
            case string(maxLength: Int? = nil, format: String? = nil, choices: [String]? = nil, defaultValue: String? = nil)
            /// A UUID in text.
            case uuid
            /// An integer between `minimum` and `maximum`.
            case integer(minimum: Int, maximum: Int)
        }

        public let name: String
        public let location: Location
        public let required: Bool
        public let description: String?
        public let value: Value

        public init(_ name: String, in location: Location, required: Bool = false, description: String? = nil, value: Value) {
            self.name = name
            self.location = location
            self.required = required
            self.description = description
            self.value = value
        }
    }

    public let method: Method
    /// The path, with `{name}` for a path parameter (`/auth/sessions/{id}`).
    public let path: String
    /// The endpoint's stable name (`logIn`): OpenAPI's `operationId`.
    public let operationId: String
    /// The group it is listed under (`Sessions`).
    public let tag: String
    /// One line saying what it does.
    public let summary: String
    /// Its rules, when one line is not enough (OpenAPI's `description`).
    public let details: String?
    public let auth: Auth
    /// The schema name of the JSON request body, if it takes one.
    public let request: String?
    /// Its success replies.
    public let replies: [Reply]
    public let parameters: [Parameter]
    /// The error statuses particular to this endpoint, each with the codes it answers there;
    /// ``errorReplies`` adds those every endpoint of its kind has.
    public let errors: [Int: String]

    public init(
        _ method: Method, _ path: String, operationId: String, tag: String, summary: String, details: String? = nil,
        auth: Auth = .none, request: String? = nil, parameters: [Parameter] = [], replies: [Reply], errors: [Int: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.operationId = operationId
        self.tag = tag
        self.summary = summary
        self.details = details
        self.auth = auth
        self.request = request
        self.parameters = parameters
        self.replies = replies
        self.errors = errors
    }

    /// `POST /auth/login`: the method and path, as docs/API.md heads the endpoint.
    public var route: String { "\(method.rawValue) \(path)" }

    /// The path with its `{name}` parameters filled in: `path(id: "3f2c…")`.
    public func path(_ values: [String: String]) -> String {
        values.reduce(path) { path, value in path.replacingOccurrences(of: "{\(value.key)}", with: value.value) }
    }

    /// The path with its `{id}` filled in.
    public func path(id: String) -> String { path(["id": id]) }
}
