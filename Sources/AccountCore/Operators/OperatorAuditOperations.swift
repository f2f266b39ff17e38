import AccountStore
import Foundation

/// The operators' audit trail: every operator action, as the admin API reads it.
package struct OperatorAuditOperations {
    package let services: Services

    /// The operator actions after `after`, newest first, `limit` of them.
    package func page(after: KeysetPosition?, limit: Int) async throws -> KeysetPage<AuditEventRecord> {
        let store = services.store
        return try await KeysetPage.read(limit: limit, position: { KeysetPosition(time: $0.at, id: $0.id) }) { count in
            try await store.read { try $0.auditEvents(after: after, limit: count) }
        }
    }
}
