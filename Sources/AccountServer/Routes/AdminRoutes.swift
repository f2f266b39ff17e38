import AccountAPI
import AccountStore
import Foundation
import HTTPServer

/// The operators' admin API (`/admin/api/...`), every route behind
/// ``OperatorGate``: the admin role and a second factor in the session's `amr`.
struct AdminRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.adminAudit, in: sets.operators, audit)
        router.add(.adminSearchUsers, in: sets.operators, searchUsers)
        router.add(.adminShowUser, in: sets.operators, showUser)
        for action in AdminUserAction.allCases {
            router.add(action.endpoint, in: sets.operators) { try await perform(action, $0) }
        }
    }

    /// `GET /admin/api/audit?limit=&after=`: operator actions, newest first, keyset paged.
    func audit(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let (limit, after) = try PageCursor.page(context.base)
        // One more than asked, to know whether a next page exists.
        let rows = try await services.store.read { try $0.auditEvents(after: after, limit: limit + 1) }
        let shown = rows.prefix(limit)
        let next = rows.count > limit ? shown.last.map { PageCursor.text(KeysetPosition(time: $0.at, id: $0.id)) } : nil
        return try .json(AdminAuditPage(
            events: shown.map {
                AdminAuditEvent(
                    id: $0.id.lowercasedText, at: $0.at, actor: $0.actor, targetId: $0.targetID?.lowercasedText, action: $0.action,
                    reason: $0.reason, requestId: $0.requestID)
            },
            next: next))
    }
}
