import HTTPServer

/// Writes the access-log line of every reply, with why a token was refused (never the token).
final class AccessLog: Middleware {
    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        let refusal = (context.failure as? TokenError)?.description
        Log.request(context, status: response.status, duration: context.started.duration(to: .now), refusal: refusal)
    }
}
