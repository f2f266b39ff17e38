import AccountAPI
import AccountCore
import Foundation
import HTTPServer

/// Turns an ``APIError`` into a problem+json reply in the caller's language (RFC 9457), whose
/// `detail` is repeated as `message` for clients that show that member.
enum ProblemRenderer {
    static func response(for error: APIError, language: Language) -> HTTPResponse {
        let detail = error.detail.map { $0(language) } ?? Messages.detail(error.code, language)
        let problem = Problem.make(
            error.code, status: error.status, language: language, detail: detail, errors: error.fieldErrors,
            mfaToken: error.secondFactor?.token, methods: error.secondFactor?.methods, profile: error.appleProfile)
        var headers: HTTPHeaders = ["Content-Type": Problem.mediaType]
        if let seconds = error.retryAfter { headers.set("Retry-After", String(seconds)) }
        if let methods = error.allowedMethods { headers.set("Allow", methods.joined(separator: ", ")) }
        if error.status == 401 {
            // RFC 6750 §3, as docs/API.md asks of every 401.
            headers.set("WWW-Authenticate", "Bearer error=\"invalid_token\"")
        }
        let body = (try? JSONCoding.encoder.encode(problem)).map { [UInt8]($0) } ?? fallback(language)
        return HTTPResponse(status: error.status, headers: headers, body: body)
    }

    /// The `internal_error` body sent should encoding a problem ever fail, with `message` as always.
    private static func fallback(_ language: Language) -> [UInt8] {
        let problem = Problem.make(.internalError, status: 500, language: language)
        return (try? JSONCoding.encoder.encode(problem)).map { [UInt8]($0) }
            ?? Array(#"{"type":"about:blank","title":"Internal error","status":500,"code":"internal_error","message":"Internal error"}"#.utf8)
    }
}
