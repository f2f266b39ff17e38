import AccountAPI
import Foundation

/// One request as an ``AccountClient``'s logger hears it when it ends: what was asked and how it
/// ended. It never holds a token, a password, a code, a body or a header's value, so it can go to
/// any log as it is.
///
/// ```swift
/// let logged = AccountClient(baseURL: URL(string: "https://accounts.example.com")!, logger: { print($0) })
/// // POST /auth/login → 401 invalid_credentials (38 ms)
/// ```
public struct RequestLog: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`…
    public let method: String
    /// The path, without the query (`/auth/login`).
    public let path: String
    /// The reply's HTTP status; `nil` when no reply came.
    public let status: Int?
    /// The `code` of a problem reply.
    public let problemCode: ErrorCode?
    /// Why no reply came (`notConnectedToInternet`, `timedOut`, `cancelled`…).
    public let transportFailure: URLError.Code?
    /// From sending to the reply (or the failure).
    public let duration: Duration

    /// `POST /auth/login → 401 invalid_credentials (38 ms)`.
    public var description: String {
        let outcome =
            if let status { "\(status)" + (problemCode.map { " \($0.rawValue)" } ?? "") }
            else { "no reply" + (transportFailure.map { " (URLError \($0.rawValue))" } ?? "") }
        let milliseconds = Int((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15).rounded())
        return "\(method) \(path) → \(outcome) (\(milliseconds) ms)"
    }
}
