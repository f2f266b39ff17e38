import AccountCore
import HTTPServer

/// Writes the access-log line of every reply, with why a token was refused (never the token).
final class AccessLog: Middleware {
    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        let refusal = (context.failure as? TokenError)?.description
        Log.request(context, status: response.status, duration: context.started.duration(to: .now), refusal: refusal)
    }
}

extension Log {
    /// Writes the access line of one answered request: method, path, status, duration, client and
    /// request id, with why a token was refused (`refusal`, never the token itself).
    static func request(_ context: RequestContext, status: Int, duration: Duration, refusal: String?) {
        let request = context.request
        var line = LogLine(event: "request", time: context.now)
        line.field("request_id", context.requestID)
        line.field("method", request.method)
        line.field("path", request.path)
        line.field("status", digitsOf: status)
        line.field("duration_ms", milliseconds: duration)
        line.field("client", context.clientAddress)
        if let refusal { line.field("reason", "token " + refusal) }
        write(line, .access)
    }
}
