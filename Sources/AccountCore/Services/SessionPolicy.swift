import AccountStore
import Foundation

/// How long a session lives: the one rule that authentication, refresh and the sessions list
/// share.
///
/// A session ends when it has not been refreshed for `--session-idle-ttl` seconds, or
/// `--session-max-ttl` seconds after it opened, whichever comes first.
package struct SessionPolicy: Sendable {
    /// Seconds a session lives without a refresh.
    package let idleLifetime: TimeInterval
    /// Seconds a session lives at most.
    package let maxLifetime: TimeInterval

    /// Whether a session is within its idle and absolute lifetimes.
    package func isLive(_ session: SessionRecord, now: Date) -> Bool {
        now < session.expiresAt && now.timeIntervalSince(session.lastUsedAt) < idleLifetime
    }

    /// A session `id` of `userID` that opens `now` from `clientAddress` and ends at the latest
    /// `maxLifetime` later.
    package func newSession(id: UUID, userID: UUID, userAgent: String?, clientAddress: String?, now: Date) -> SessionRecord {
        SessionRecord(
            id: id, userID: userID, createdAt: now, lastUsedAt: now, expiresAt: now.addingTimeInterval(maxLifetime),
            userAgent: userAgent.map { String($0.prefix(256)) }, clientAddress: clientAddress)
    }

    /// When a session last used before it has ended for being idle, at `now`.
    package func idleSince(now: Date) -> Date { now.addingTimeInterval(-idleLifetime) }

    /// Seconds a refresh token handed out `now` stays usable: until the session's idle or
    /// absolute end, whichever comes first.
    package func refreshLifetime(of session: SessionRecord, now: Date) -> Int {
        max(0, Int(min(idleLifetime, session.expiresAt.timeIntervalSince(now))))
    }
}
