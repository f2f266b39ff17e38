import AccountAPI
import AccountStore
import Foundation

/// What checking a password under the back-off came to.
package enum PasswordCheck: Equatable {
    case right
    case wrong
    /// Refused without a check: the account is backed off for this many seconds.
    case backedOff(retryAfter: Int)
}

extension APIError {
    /// A wrong password on an authenticated request (password change, account deletion): the
    /// token is fine, so it is a 403 without a Bearer challenge, never a 401 that RFC 6750 clients
    /// answer by dropping their session.
    package static let wrongPassword = APIError(
        403, .invalidCredentials,
        detail: LocalizedText(en: "The password is incorrect.", ko: "비밀번호가 올바르지 않아요."))
}

/// The per-account back-off every password check goes through (login, password change, account
/// deletion), counted in the database so that every server on it shares it.
package struct LoginThrottle: Sendable {
    package let store: any AccountStore
    package let passwords: PasswordService
    package let events: DomainEvents
    package let limits: LoginLimits

    /// Checks `password` against `hash` under the per-account back-off that login uses: every
    /// endpoint that checks a password goes through here, so failures anywhere count everywhere
    /// (one counter per account, shared by every server on the database).
    ///
    /// The try is counted before the check (``reserveLoginTry(key:now:)``), a wrong password
    /// confirms the failure (``confirmLoginFailure(key:now:event:)``); after a right one the caller
    /// clears the count (``clear(key:in:)``) in the transaction that acts on it.
    /// With `hash` `nil` (no such account) the dummy hash is checked, so the time is the same.
    /// `failure` is the wrong password's event (a `checkFailed`), recorded with the failure's count.
    package func checkPassword(
        _ password: String, against hash: String?, throttleKey: String, now: Date, failure: DomainEvent
    ) async throws -> PasswordCheck {
        if let retryAfter = try await reserveLoginTry(key: throttleKey, now: now) { return .backedOff(retryAfter: retryAfter) }
        if try await passwords.verify(password, against: hash) { return .right }
        try await confirmLoginFailure(key: throttleKey, now: now, event: failure)
        return .wrong
    }

    /// Counts a login try against `key` before its password is checked; returns the seconds to
    /// wait when it is refused.
    ///
    /// The try is counted up front, in one transaction on the key's locked row, so a hundred
    /// parallel guesses cannot all pass before any is counted: once the tries in flight and the
    /// failures reach the limit, more are refused for a second. A failed check then confirms the
    /// failure (``confirmLoginFailure(key:now:event:)``), which starts a back-off when the limit is
    /// reached; a success forgets the count (``clear(key:in:)``). The first back-off
    /// is `loginBackoff` seconds, each further failure doubles it up to `loginWindow`; tries during
    /// a back-off are refused without extending it, and a window of calm forgets the streak.
    package func reserveLoginTry(key: String, now: Date) async throws -> Int? {
        let (limit, window) = (limits.attempts, limits.window)
        guard limit > 0 else { return nil }
        return try await store.write { tx -> Int? in
            var record = try tx.lockLoginThrottle(key: key, now: now)
            if let lockedUntil = record.lockedUntil, lockedUntil > now {
                return Int(lockedUntil.timeIntervalSince(now).rounded(.up))
            }
            if now.timeIntervalSince(record.lockedUntil ?? record.windowStart) >= window {
                record = LoginThrottleRecord(key: key, windowStart: now)
            }
            if record.failures >= Self.threshold(record, limit: limit) { return 1 }
            record.failures += 1
            try tx.updateLoginThrottle(record)
            return nil
        }
    }

    /// Confirms that a counted try failed; starts the next back-off when the limit is reached.
    /// `event` (the failed check's) is recorded in the same transaction, so a failure costs no
    /// write of its own.
    ///
    /// The account was read before its password or code was checked, outside any transaction: if
    /// it was deleted meanwhile, its history row goes with it (``SecurityHistorySink``) and the
    /// failure is answered as any other, never with a `500` from an event whose account is gone.
    package func confirmLoginFailure(key: String, now: Date, event: DomainEvent) async throws {
        let (limit, window, base) = (limits.attempts, limits.window, limits.backoff)
        guard limit > 0 else {
            // No back-off is kept, so nothing is written but the event.
            guard event.userID != nil else { return events.record(event) }
            return try await events.write { try $1.record(event) }
        }
        try await events.write { tx, ledger in
            try ledger.record(event)
            var record = try tx.lockLoginThrottle(key: key, now: now)
            guard (record.lockedUntil ?? .distantPast) <= now, record.failures >= Self.threshold(record, limit: limit) else { return }
            record.lockedUntil = now.addingTimeInterval(min(window, base * pow(2, Double(min(record.lockouts, 20)))))
            record.lockouts += 1
            record.failures = 0
            try tx.updateLoginThrottle(record)
        }
    }

    /// Gives back a try counted by ``reserveLoginTry(key:now:)`` that turned out neither a failure
    /// nor a success, in the caller's transaction: a right password whose login waits for its second factor (clearing would
    /// forget the streak of wrong codes before it), or a second-factor answer that found its
    /// challenge gone.
    package func refundLoginTry(key: String, now: Date, in tx: any StoreTransaction) throws {
        guard limits.attempts > 0 else { return }
        var record = try tx.lockLoginThrottle(key: key, now: now)
        guard record.failures > 0 else { return }
        record.failures -= 1
        try tx.updateLoginThrottle(record)
    }

    /// Counts a wrong second-factor code of `userID` as the failure of the try reserved for it
    /// (at a password check or ``reserveLoginTry(key:now:)``): wrong codes and wrong passwords
    /// share one back-off. The failed check's event, from `source` at `via`, is recorded with it.
    /// Throws `code_invalid`.
    package func refuseWrongCode(userID: UUID, now: Date, source: EventSource, via route: String) async throws -> Never {
        let event = DomainEvent(.checkFailed(.secondFactor, via: route), userID: userID, at: now, source: source, ["via": route])
        try await confirmLoginFailure(key: Self.key(userID: userID), now: now, event: event)
        throw APIError.secondFactorInvalid
    }

    /// Failures that start a back-off: the limit at first, then every single one in a streak.
    private static func threshold(_ record: LoginThrottleRecord, limit: Int) -> Int {
        record.lockouts == 0 ? limit : 1
    }

    /// Forgets the failures of `key` (a successful login or a password reset).
    package func clear(key: String, in tx: any StoreTransaction) throws {
        try tx.deleteLoginThrottle(key: key)
    }

    /// The throttle key of an account: its id, whatever identifier or letter case was used.
    package static func key(userID: UUID) -> String { userID.lowercasedText }

    /// The throttle key of an identifier with no account, so unknown and known ones behave alike.
    package static func key(unknown identifierKey: String, byEmail: Bool) -> String {
        (byEmail ? "email:" : "username:") + identifierKey
    }
}
