import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

/// The account's own security history: `GET /auth/security-events`.
struct SecurityEventRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.listSecurityEvents, in: sets.signedIn, list)
    }

    /// `GET /auth/security-events?limit=&after=`: the caller's events, newest first, keyset paged
    /// (`limit` 1 to 100, default 20). Only the caller's own: the account comes from the token,
    /// and a cursor names a position, never an account.
    func list(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let (limit, after) = try PageCursor.page(context.base, defaultLimit: 20)
        let page = try await operations.page(of: context.caller, after: after, limit: limit)
        return try .json(SecurityEventPage(events: page.rows.map(Self.wire), next: page.next.map(PageCursor.text)))
    }

    /// An event as the account (and an operator) sees it.
    static func wire(_ event: SecurityEventRecord) -> SecurityEvent {
        SecurityEvent(
            id: event.id.lowercasedText, at: event.at, type: event.type, clientAddress: event.clientAddress,
            deviceName: event.deviceName, detail: SecurityEventDetail.object(event.detail))
    }

    private var operations: SecurityEventOperations { services.securityEventOperations }
}
