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
