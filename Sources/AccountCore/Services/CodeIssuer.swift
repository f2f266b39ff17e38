import AccountStore
import Foundation
import Mailer
import Sodium

/// What checking a one-time code came to; decided inside the transaction, answered after it
/// commits (throwing inside would roll back the counted wrong try).
package enum CodeCheck: Sendable, Equatable {
    /// The code matched the live code of this purpose, which is now spent.
    case verified(purpose: String)
    case invalid
    case expired
    /// Too many wrong tries: the code is spent.
    case spent

    /// The error to answer with when the check failed.
    package var error: APIError? {
        switch self {
        case .verified: nil
        case .invalid: .codeInvalid
        case .expired: .codeExpired
        case .spent: .tooManyAttempts
        }
    }
}

/// What a new code's mail is: the code itself, a notice instead (the address must not get a
/// code, but its owner should hear of the request), or nothing.
package enum CodeMail {
    case code(MailMessage)
    case notice(MailMessage)
    case none
}

/// One-time codes: issued under the address's resend cooldown and hourly count, with their mail
/// queued in the same transaction, and checked with a limit on wrong tries.
package struct CodeIssuer: Sendable {
    /// Makes codes and their keyed hashes.
    package let hasher: CodeHasher
    /// Where a code's mail goes, under the recipient's mail budget.
    package let outbox: Outbox
    /// Each address's mail budget, whose interval is also the resend cooldown of its codes.
    package let budget: MailBudget
    package let rules: CodeRules

    /// Stores a new code for an address and purpose and queues its mail, in the caller's
    /// transaction; throws `rate_limited` (rolling the transaction back) when the address's last
    /// code for this purpose is younger than the resend cooldown or it had its codes for this hour.
    ///
    /// The limits count requests, not mail, and the row is written whatever `mail` decides: with
    /// a notice or nothing instead of a code it gets a hash nobody knows, so cooldowns and answers
    /// to guesses stay the same as for a real code and no reply tells the cases apart. A code
    /// that was used or spent no longer holds the cooldown. The mail itself also goes through the
    /// address's mail budget (``Outbox/queue(_:in:now:)``). The cooldown is claimed by one conditional
    /// upsert, so of simultaneous requests on several servers one passes, and the code mailed is
    /// the code stored.
    /// Returns whether a code was mailed (rather than a notice, or nothing).
    @discardableResult
    package func issue(
        emailKey: String, purpose: String, now: Date, in tx: any StoreTransaction,
        mail: (_ code: String) -> CodeMail
    ) throws -> Bool {
        let (cooldown, perHour) = (TimeInterval(budget.interval), budget.perHour)
        let code = hasher.newCode()
        let message = mail(code)
        var hash = hasher.random.bytes(32)
        if case .code = message { hash = hasher.hash(code: code, emailKey: emailKey, purpose: purpose) }
        let record = CodeRecord(
            emailKey: emailKey, purpose: purpose, codeHash: hash, createdAt: now,
            expiresAt: now.addingTimeInterval(rules.lifetime))
        guard try tx.upsertCode(record, ifCreatedBefore: now.addingTimeInterval(-cooldown)) else {
            let previous = try tx.code(emailKey: emailKey, purpose: purpose)?.createdAt ?? now
            throw APIError.rateLimited(retryAfter: Int((cooldown - now.timeIntervalSince(previous)).rounded(.up)))
        }
        let hour: TimeInterval = 3600
        let sends = try tx.incrementRateCounter(key: "code:\(purpose):\(emailKey)", now: now, window: hour)
        if perHour > 0, sends.count > perHour {
            throw APIError.rateLimited(retryAfter: Int((hour - now.timeIntervalSince(sends.windowStart)).rounded(.up)))
        }
        switch message {
        case .code(let message):
            try outbox.queue(message, in: tx, now: now)
            return true
        case .notice(let message):
            try outbox.queue(message, in: tx, now: now)
            return false
        case .none:
            return false
        }
    }

    /// Checks `code` against the live codes of `purposes` for an address, in the caller's
    /// transaction: a match spends the code (unless `spending` is `false`: a check before work
    /// that may still refuse, with a spending check after it); a miss counts a try on each live
    /// code, and the try that reaches the limit spends it.
    package func check(
        _ code: String, emailKey: String, purposes: [String], now: Date, in tx: any StoreTransaction, spending: Bool = true
    ) throws -> CodeCheck {
        let maxAttempts = rules.maxAttempts
        let candidates = try purposes.compactMap { try tx.code(emailKey: emailKey, purpose: $0) }
        guard !candidates.isEmpty else { return .invalid }
        let live = candidates.filter { $0.expiresAt > now }
        guard !live.isEmpty else { return .expired }
        let usable = live.filter { $0.attempts < maxAttempts }
        guard !usable.isEmpty else { return .spent }
        if let match = usable.first(where: { candidate in
            constantTimeEquals(candidate.codeHash, hasher.hash(code: code, emailKey: emailKey, purpose: candidate.purpose))
        }) {
            if spending { try tx.deleteCode(emailKey: emailKey, purpose: match.purpose) }
            return .verified(purpose: match.purpose)
        }
        var spent = false
        for candidate in usable where try tx.incrementCodeAttempts(emailKey: emailKey, purpose: candidate.purpose) >= maxAttempts {
            spent = true
        }
        return spent ? .spent : .invalid
    }
}
