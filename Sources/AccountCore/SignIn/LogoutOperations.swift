import AccountAPI
import AccountStore
import Foundation

/// Signing out: the caller's session, every other one of the account's, or all of them ended.
package struct LogoutOperations {
    package let services: Services

    /// Ends the sessions `scope` names, with their `session_ended` event, then logs `logout`.
    package func logOut(_ scope: LogoutScope, of caller: SignedInCaller) async throws {
        let (userID, sessionID, now) = (caller.userID, caller.sessionID, caller.now)
        try await services.events.write { tx, ledger in
            switch scope {
            case .local:
                let ended = try tx.revokeSession(id: sessionID, at: now) ? 1 : 0
                try ledger.record(caller.event(.sessionsEnded(count: ended, .logout)))
            case .others:
                let ended = try tx.revokeSessions(userID: userID, except: sessionID, at: now)
                try ledger.record(caller.event(.sessionsEnded(count: ended, .logoutOthers)))
            case .global:
                let ended = try tx.revokeSessions(userID: userID, except: nil, at: now)
                try ledger.record(caller.event(.sessionsEnded(count: ended, .logoutAll)))
            }
        }
        services.events.record(caller.event(.logged(.logout), ["scope": scope.rawValue]))
    }
}
