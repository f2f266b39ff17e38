import AccountCore
import HTTPServer

/// `Cache-Control: no-store` on every reply of a group that answers with accounts, tokens or
/// operators' data, refusals included: no cache or browser history keeps them. (Their handlers
/// set no caching of their own, so the header is added, not searched for.)
final class NoStore: Middleware {
    var marksRefusals: Bool { true }

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        response.headers.add("Cache-Control", "no-store")
    }
}
