import AccountAPI
import AccountCore
import Foundation
import HTTPServer

/// One request on its way through the ``Pipeline``: what it asked, what the steps before found.
public struct RequestContext: Sendable {
    public let request: HTTPRequest
    /// The `X-Request-Id` this reply carries (the client's if sane, else a new one).
    public let requestID: String
    /// The language of texts in the reply, from `Accept-Language`.
    public let language: Language
    /// The client address used for limits (socket peer, or a trusted proxy's `X-Forwarded-For`).
    public let clientAddress: String
    /// The time the request is handled at (from the injected clock).
    public let now: Date
    /// When the pipeline took the request, for its duration in metrics and the access log.
    let started: ContinuousClock.Instant
    /// The pattern of the route whose path matched (`/auth/sessions/{id}`); `nil` before routing
    /// or when no route has this path.
    var route: String?
    /// Route parameters such as `{id}`.
    public var parameters: [String: String] = [:]
    /// The signed-in account, once the authenticated groups' step has admitted the request.
    var authentication: Authentication?
    /// What refused the request, for the steps on the way out; `nil` while nothing has.
    var failure: (any Error)?

    init(request: HTTPRequest, requestID: String, language: Language, clientAddress: String, now: Date) {
        self.request = request
        self.requestID = requestID
        self.language = language
        self.clientAddress = clientAddress
        self.now = now
        started = .now
    }
}

extension RequestContext {
    /// The request as the operations see it.
    var caller: Caller {
        Caller(requestID: requestID, clientAddress: clientAddress, userAgent: request.headers["User-Agent"], language: language, now: now)
    }
}
