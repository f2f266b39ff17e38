import AccountAPI
import Foundation
import HTTPServer

/// What a handler knows about the request it answers.
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
    /// Route parameters such as `{id}`.
    public var parameters: [String: String] = [:]
}

/// A request whose bearer token was verified and whose session is live.
///
/// Only ``Authenticator`` makes one, so a handler that takes it cannot forget the check.
public struct AuthenticatedContext: Sendable {
    public let base: RequestContext
    public let userID: UUID
    public let sessionID: UUID
    public var now: Date { base.now }
    public var language: Language { base.language }

    init(base: RequestContext, userID: UUID, sessionID: UUID) {
        self.base = base
        self.userID = userID
        self.sessionID = sessionID
    }
}
