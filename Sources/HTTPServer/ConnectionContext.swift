/// What MHD keeps for one request in its per-connection pointer, from the first callback to the
/// request-completed callback.
///
/// Not locked: MHD calls back for one connection from one thread at a time, and the async handler
/// hands its response over through `MHD_resume_connection`, whose daemon mutex orders the write
/// before MHD's next callback reads it.
final class ConnectionContext: @unchecked Sendable {
    /// The body read so far, never more than the limit.
    private(set) var body: [UInt8] = []
    /// The body grew past the limit; the rest of the upload is discarded.
    private(set) var overflowed = false
    /// A response has been queued for this request.
    var answered = false
    /// The request was registered in `InFlightRequests` and must leave it on completion.
    var registered = false
    /// The async handler's answer, waiting for MHD to call back after resume.
    var response: HTTPResponse?

    /// Appends a piece of the upload, or drops the body for good once it passes `limit`.
    func append(_ data: UnsafePointer<CChar>, count: Int, limit: Int) {
        guard !overflowed else { return }
        guard count <= limit - body.count else {
            overflowed = true
            body = []
            return
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) {
            body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// Hands the body over, leaving none here.
    func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }
}
