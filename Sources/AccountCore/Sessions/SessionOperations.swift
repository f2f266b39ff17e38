import AccountAPI
import AccountStore
import Foundation

/// The caller's own sessions: listed, and ended one at a time.
package struct SessionOperations {
    package let services: Services

    /// The caller's live sessions, newest first.
    package func liveSessions(of caller: SignedInCaller) async throws -> [SessionRecord] {
        let (userID, now, policy) = (caller.userID, caller.now, services.sessions.policy)
        return try await services.store.read { try $0.sessions(userID: userID) }
            .filter { $0.revokedAt == nil && policy.isLive($0, now: now) }
    }

    /// What ending one session came to.
    package enum EndOutcome: Equatable {
        case ended
        /// No live session of the caller's has that id (anyone else's is not told apart).
        case notFound
    }

    /// Ends the caller's session `id`, with its `session_ended` event.
    package func end(_ id: UUID, of caller: SignedInCaller) async throws -> EndOutcome {
        let (userID, now) = (caller.userID, caller.now)
        return try await services.events.write { tx, ledger -> EndOutcome in
            guard let session = try tx.session(id: id), session.userID == userID, session.revokedAt == nil else { return .notFound }
            try tx.revokeSession(id: id, at: now)
            try ledger.record(caller.event(.sessionsEnded(count: 1, .ended)))
            return .ended
        }
    }
}
