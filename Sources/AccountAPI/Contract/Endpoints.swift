extension Endpoint {
    /// Every endpoint of the API, by area: what the server routes and `/openapi.json` documents.
    public static let all: [Endpoint] = signIn + account + secondFactor + passkeys + discovery + admin + activity + apple + console

    /// The endpoint with this method and path pattern (`/auth/sessions/{id}`), if there is one.
    public static func named(_ method: Method, _ path: String) -> Endpoint? {
        all.first { $0.method == method && $0.path == path }
    }
}
