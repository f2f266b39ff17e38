import AccountAPI
import Foundation

extension AccountClient {
    /// `GET /auth/security-events`: a page of the account's own security history, newest first.
    /// `after` is the `next` of the page before; `limit` 1 to 100 (the server's default, 20, when `nil`).
    public func securityEvents(limit: Int? = nil, after: String? = nil, accessToken: String) async throws -> SecurityEventPage {
        var query: [String: String] = [:]
        if let limit { query["limit"] = String(limit) }
        if let after { query["after"] = after }
        let (status, data) = try await send(.listSecurityEvents, query: query, accessToken: accessToken)
        do {
            return try Self.decoder.decode(SecurityEventPage.self, from: data)
        } catch {
            throw AccountError.undecodableReply(status: status)
        }
    }
}
