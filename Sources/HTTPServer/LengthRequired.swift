extension HTTPResponse {
    /// The reply to a request whose body comes with `Transfer-Encoding` instead of
    /// `Content-Length`: `411 Length Required` as RFC 9457 problem details.
    ///
    /// libmicrohttpd 0.9.75 keeps a whole chunk-size line, extensions included, in the
    /// connection's fixed memory pool and answers its own `500` when the line does not fit, for
    /// any pool size; refusing the body before MHD parses it is the only way to answer such a
    /// request with a client error. RFC 9112 §6.3 allows a server to require `Content-Length`.
    public static let lengthRequired = HTTPResponse(
        status: 411,
        headers: ["Content-Type": "application/problem+json"],
        body: Array(
            #"{"type":"about:blank","title":"Length Required","status":411,"code":"length_required","detail":"Send the body with a Content-Length header; chunked uploads are not accepted."}"#
                .utf8))
}
