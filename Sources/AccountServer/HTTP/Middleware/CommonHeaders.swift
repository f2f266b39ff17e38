import AccountCore
import HTTPServer

/// The headers every reply carries: its request id, and the browser hardening an API wants
/// (no sniffing, no framing, no referrer, no content policy but the console's own).
final class CommonHeaders: Middleware {
    var marksRefusals: Bool { true }

    /// The headers this step writes, each replacing any line a handler wrote of the same name.
    private static let replaced = ["X-Request-Id", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"]

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        // The console's page and assets (`/admin`) bring a policy of their own that lets them run.
        let ownPolicy = response.headers.contains("Content-Security-Policy")
        for name in Self.replaced where response.headers.contains(name) { response.headers.remove(name) }
        response.headers.add("X-Request-Id", context.requestID)
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("X-Frame-Options", "DENY")
        response.headers.add("Referrer-Policy", "no-referrer")
        if !ownPolicy { response.headers.add("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'") }
    }
}
