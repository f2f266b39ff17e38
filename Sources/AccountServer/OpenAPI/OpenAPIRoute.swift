import HTTPServer

extension AccountApp {
    /// `GET /openapi.json`: the document, encoded once when the router is built.
    func openAPIHandler() -> Handler {
        let body = Result { try OpenAPIDocument.encoded(issuer: configuration.issuer) }
        return { _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=300"],
                body: try body.get())
        }
    }
}
