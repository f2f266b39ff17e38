import AccountStore
import Foundation

/// The account's own security history, as the account reads it.
package struct SecurityEventOperations {
    package let services: Services

    /// The caller's events after `after`, newest first, `limit` of them. Only the caller's own:
    /// the account is the caller's, and a position names a place in it, never an account.
    package func page(of caller: SignedInCaller, after: KeysetPosition?, limit: Int) async throws -> KeysetPage<SecurityEventRecord> {
        let (store, userID) = (services.store, caller.userID)
        return try await KeysetPage.read(limit: limit, position: { KeysetPosition(time: $0.at, id: $0.id) }) { count in
            try await store.read { try $0.securityEvents(userID: userID, after: after, limit: count) }
        }
    }
}
