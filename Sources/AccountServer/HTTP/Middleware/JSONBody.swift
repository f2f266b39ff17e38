import AccountCore
/// A body must be JSON (a `charset` parameter is fine); anything else with a body is 415.
final class JSONBody: Middleware {
    func enter(_ context: inout RequestContext) throws -> Readiness {
        guard !context.request.body.isEmpty else { return .done }
        guard let header = context.request.headers["Content-Type"], Self.isJSONMediaType(header) else {
            throw APIError.unsupportedMediaType
        }
        return .done
    }

    /// Whether a `Content-Type` names `application/json` (any letter case, blanks around it, any
    /// parameters after `;`).
    static func isJSONMediaType(_ header: String) -> Bool {
        let end = header.utf8.firstIndex(of: 0x3B) ?? header.endIndex
        guard let mediaType = HeaderBytes.trimmed(header[..<end].utf8) else { return false }
        return HeaderBytes.equalsIgnoringCase(mediaType, "application/json")
    }
}
