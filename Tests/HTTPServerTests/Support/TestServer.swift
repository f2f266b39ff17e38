import HTTPServer

/// Starts a server on 127.0.0.1 and a free port, with a 413 `tooLarge` reply.
func startServer(
    maxBodySize: Int = 65536,
    fastHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
) throws -> HTTPServer {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(port: 0, maxBodySize: maxBodySize),
        fastHandler: fastHandler,
        tooLarge: { request in
            HTTPResponse(status: 413, headers: ["X-Path": request.path], body: Array("too large".utf8))
        },
        handler: handler)
    try server.start()
    return server
}

/// A plain-text response.
func text(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
}
