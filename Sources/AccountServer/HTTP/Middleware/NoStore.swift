import HTTPServer

/// `Cache-Control: no-store` on every reply of a group that answers with accounts, tokens or
/// operators' data, refusals included: no cache or browser history keeps them.
struct NoStore: Middleware {
    var marksRefusals: Bool { true }

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        response.headers.set([("Cache-Control", "no-store")])
    }
}
