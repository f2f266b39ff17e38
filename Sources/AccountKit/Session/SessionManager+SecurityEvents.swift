import AccountAPI
import Foundation

extension SessionManager {
    /// `GET /auth/security-events`: a page of the account's security history, newest first
    /// (``SecurityHistory`` pages through it for a screen).
    public func securityEvents(limit: Int? = nil, after: String? = nil) async throws -> SecurityEventPage {
        let client = client
        return try await authorized { try await client.securityEvents(limit: limit, after: after, accessToken: $0) }
    }
}
