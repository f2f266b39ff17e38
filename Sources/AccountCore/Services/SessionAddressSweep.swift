import AccountStore
import Foundation

/// Forgets the client address of sessions that have ended: the address is personal data, kept
/// only while its session lives.
///
/// A revocation (logout, ending sessions, disabling, a reused refresh token) forgets it in its
/// own statement; a session that ends by expiring (idle for `--session-idle-ttl`, or past
/// `--session-max-ttl`) writes nothing when it does, so this sweep, run once an hour by the
/// server's periodic sweep (``HourlySweep``), clears those: found by a read (which may scan
/// `sessions` on a reader, never holding the writer: no index may name what a refresh writes),
/// cleared a batch at a time by id, each statement checking again that the session ended.
/// Deleting the account deletes its sessions with their addresses.
package enum SessionAddressSweep {
    /// Forgets the address of every session ended by `now` under `policy`, `batch` at a time;
    /// returns how many.
    @discardableResult
    package static func sweep(_ store: any AccountStore, policy: SessionPolicy, now: Date, batch: Int = 1000) async throws -> Int {
        let idleSince = policy.idleSince(now: now)
        var forgotten = 0
        while true {
            let ended = try await store.read { try $0.endedSessionsWithAddress(now: now, idleSince: idleSince, limit: batch) }
            if ended.isEmpty { return forgotten }
            forgotten += try await store.write { try $0.forgetClientAddresses(sessionIDs: ended, now: now, idleSince: idleSince) }
            if ended.count < batch { return forgotten }
        }
    }
}
