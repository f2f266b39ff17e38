import HTTPServer

/// The headers every reply carries: its request id, and the browser hardening an API wants
/// (no sniffing, no framing, no referrer, no content policy but the console's own).
struct CommonHeaders: Middleware {
    var marksRefusals: Bool { true }

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        var common: [HTTPHeaders.Element] = [
            ("X-Request-Id", context.requestID), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
        ]
        // The console's page and assets (`/admin`) bring a policy of their own that lets them run.
        if response.headers["Content-Security-Policy"] == nil {
            common.append(("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"))
        }
        response.headers.set(common)
    }
}
