import HTTPServer

/// Starts a server on 127.0.0.1 and a free port. A body over the limit gets a plain-text 413
/// naming the path; every other refusal the server's default problem+json.
func startServer(
    maxBodySize: Int = 65536,
    configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    fastHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
) throws -> HTTPServer {
    var configuration = HTTPServerConfiguration(port: 0, maxBodySize: maxBodySize)
    configure(&configuration)
    let server = HTTPServer(
        configuration: configuration,
        fastHandler: fastHandler,
        refused: { request, refusal in
            guard refusal == .payloadTooLarge else { return .refusal(refusal) }
            return HTTPResponse(status: 413, headers: ["X-Path": request.path], body: Array("too large".utf8))
        },
        handler: handler)
    try server.start()
    return server
}

/// A plain-text response.
func text(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
}
