/// What a responder makes of a request on the event loop's thread: the reply itself, or the
/// work that produces it, which the server runs in a task.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0)) { request in
///     request.path == "/healthz" ? .ready(HTTPResponse(status: 200)) : .pending { await answer(request) }
/// }
/// ```
public enum HTTPReply: Sendable {
    /// The reply, sent at once from the event loop.
    case ready(HTTPResponse)
    /// The reply once `work` returns; the server runs it in a task and counts it as in flight.
    case pending(@Sendable () async -> HTTPResponse)
}
