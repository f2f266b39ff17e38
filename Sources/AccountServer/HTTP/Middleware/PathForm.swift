import AccountCore
/// Only paths in normal form are routed: a path with an empty segment (`//auth/me`,
/// `/auth//me`) or a `.` or `..` segment (`/./auth/me`, `/auth/../auth/me`, also when
/// percent-encoded) is `404`, so no spelling of a path reaches a route by another way than its
/// own. A trailing slash is still the same path.
final class PathForm: Middleware {
    func enter(_ context: inout RequestContext) throws -> Readiness {
        guard Self.isNormal(context.request.path) else { throw APIError.notFound }
        return .done
    }

    /// Whether `path` starts with `/` and has no empty, `.` or `..` segment before its end.
    static func isNormal(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.first == 0x2F else { return false }
            var segmentLength = 0, dots = 0
            for byte in bytes[1...] {
                if byte == 0x2F {
                    if segmentLength == 0 || (segmentLength == dots && dots <= 2) { return false }
                    segmentLength = 0
                    dots = 0
                } else {
                    segmentLength += 1
                    if byte == 0x2E { dots += 1 }
                }
            }
            return segmentLength == 0 || !(segmentLength == dots && dots <= 2)
        }
    }
}
