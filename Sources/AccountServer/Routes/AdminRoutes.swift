import AccountAPI
import AccountCore
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
        let page = try await auditTrail.page(after: after, limit: limit)
        return try .json(AdminAuditPage(
            events: page.rows.map {
                AdminAuditEvent(
                    id: $0.id.lowercasedText, at: $0.at, actor: $0.actor, targetId: $0.targetID?.lowercasedText, action: $0.action,
                    reason: $0.reason, requestId: $0.requestID)
            },
            next: page.next.map(PageCursor.text)))
    }

    private var auditTrail: OperatorAuditOperations { services.operatorAuditOperations }
}
