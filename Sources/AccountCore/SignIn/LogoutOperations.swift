import AccountAPI
import AccountStore
import Foundation

/// Signing out: the caller's session, every other one of the account's, or all of them ended.
package struct LogoutOperations {
    package let services: Services

    /// Ends the sessions `scope` names, with their `session_ended` event, then logs `logout`.
    package func logOut(_ scope: LogoutScope, of caller: SignedInCaller) async throws {
        let (userID, sessionID, now, origin) = (caller.userID, caller.sessionID, caller.now, caller.origin)
        try await services.store.write { tx in
            switch scope {
            case .local:
                let ended = try tx.revokeSession(id: sessionID, at: now) ? 1 : 0
                try origin.recordSessionsEnded(ended, reason: .logout, userID: userID, at: now, in: tx)
            case .others:
                let ended = try tx.revokeSessions(userID: userID, except: sessionID, at: now)
                try origin.recordSessionsEnded(ended, reason: .logoutOthers, userID: userID, at: now, in: tx)
            case .global:
                let ended = try tx.revokeSessions(userID: userID, except: nil, at: now)
                try origin.recordSessionsEnded(ended, reason: .logoutAll, userID: userID, at: now, in: tx)
            }
        }
        caller.audit(.logout, ["scope": scope.rawValue])
    }
}
