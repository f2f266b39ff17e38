/// Why the server answers a request itself instead of handing it to a handler. Every refusal
/// closes the connection after its reply, and a refused body is never read.
public enum HTTPRefusal: Error, Sendable, Hashable {
    /// `400`: the request is not well-formed HTTP/1.1 (RFC 9112, RFC 9110 §5.5).
    case malformed(MalformedRequest)
    /// `408`: the head did not arrive within the header timeout, or the body within its time.
    case requestTimeout
    /// `411`: a body sent with `Transfer-Encoding` (chunked) instead of `Content-Length`.
    case lengthRequired
    /// `413`: a declared body over the size limit.
    case payloadTooLarge
    /// `414`: a request line or query over its limit.
    case uriTooLong
    /// `431`: too many header lines, or too many header bytes.
    case headerFieldsTooLarge
    /// `505`: an HTTP major version other than 1.
    case versionNotSupported

    /// The status code of the reply.
    public var status: Int {
        switch self {
        case .malformed: 400
        case .requestTimeout: 408
        case .lengthRequired: 411
        case .payloadTooLarge: 413
        case .uriTooLong: 414
        case .headerFieldsTooLarge: 431
        case .versionNotSupported: 505
        }
    }
}

/// Which rule of the message syntax a `400` request broke.
public enum MalformedRequest: String, Sendable, Hashable {
    /// The request line, a line ending (a bare CR or LF), a header line (a name that is not a
    /// token, blanks before the colon, a folded line) or a control character in a header value.
    case framing
    /// An HTTP/1.1 request without `Host`, with more than one, or with an invalid value.
    case host
    /// `Content-Length` sent twice (even with equal values), or not a plain decimal number that
    /// fits; or sent beside `Transfer-Encoding`.
    case contentLength
    /// The request target: not a path, a malformed percent-encoding, or a control character
    /// (raw or percent-encoded) in the path or query.
    case target
}

extension HTTPResponse {
    /// The reply to `refusal` when the server was given no renderer of its own: a small RFC 9457
    /// problem+json body with a stable `code`, and its `detail` repeated as `message` (an RFC 9457
    /// extension member, for clients that show a `message`).
    public static func refusal(_ refusal: HTTPRefusal) -> HTTPResponse {
        let (code, title, detail): (String, String, String) =
            switch refusal {
            case .malformed(let what): ("invalid_request", "Bad Request", "The request is not well-formed HTTP/1.1 (\(what.rawValue)).")
            case .requestTimeout: ("request_timeout", "Request Timeout", "The request did not arrive in time.")
            case .lengthRequired:
                ("length_required", "Length Required", "Send the body with a Content-Length header; chunked uploads are not accepted.")
            case .payloadTooLarge: ("payload_too_large", "Content Too Large", "The request body is larger than the server accepts.")
            case .uriTooLong: ("uri_too_long", "URI Too Long", "The request line or its query is longer than the server accepts.")
            case .headerFieldsTooLarge:
                ("header_fields_too_large", "Request Header Fields Too Large", "The request has more header lines or bytes than the server accepts.")
            case .versionNotSupported: ("version_not_supported", "HTTP Version Not Supported", "Send HTTP/1.1.")
            }
        let body = #"{"type":"about:blank","title":"\#(title)","status":\#(refusal.status),"code":"\#(code)","detail":"\#(detail)","message":"\#(detail)"}"#
        return HTTPResponse(status: refusal.status, headers: ["Content-Type": "application/problem+json"], body: Array(body.utf8))
    }
}
