import AccountAPI
import AccountStore
import Foundation

/// Signing out: the caller's session, every other one of the account's, or all of them ended.
package struct LogoutOperations {
    package let services: Services

    /// Ends the sessions `scope` names, with their `session_ended` event, logged as `logout`.
    package func logOut(_ scope: LogoutScope, of caller: SignedInCaller) async throws {
        let (userID, sessionID, now) = (caller.userID, caller.sessionID, caller.now)
        try await services.events.write { tx, ledger in
            let (ended, reason): (Int, SessionEndReason)
            switch scope {
            case .local: (ended, reason) = (try tx.revokeSession(id: sessionID, at: now) ? 1 : 0, .logout)
            case .others: (ended, reason) = (try tx.revokeSessions(userID: userID, except: sessionID, at: now), .logoutOthers)
            case .global: (ended, reason) = (try tx.revokeSessions(userID: userID, except: nil, at: now), .logoutAll)
            }
            try ledger.record(caller.event(.sessionsEnded(count: ended, reason), ["scope": scope.rawValue]))
        }
    }
}
