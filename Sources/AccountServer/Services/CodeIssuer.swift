import AccountStore
import Foundation
import Mailer
import Sodium

/// What checking a one-time code came to; decided inside the transaction, answered after it
/// commits (throwing inside would roll back the counted wrong try).
enum CodeCheck: Sendable, Equatable {
    /// The code matched the live code of this purpose, which is now spent.
    case verified(purpose: String)
    case invalid
    case expired
    /// Too many wrong tries: the code is spent.
    case spent

    /// The error to answer with when the check failed.
    var error: APIError? {
        switch self {
        case .verified: nil
        case .invalid: .codeInvalid
        case .expired: .codeExpired
        case .spent: .tooManyAttempts
        }
    }
}

extension AccountApp {
    /// Stores a new code for an address and purpose and queues its mail, in the caller's
    /// transaction; returns the seconds to wait instead when the last code is younger than the
    /// resend cooldown or the address had its codes for this hour.
    ///
    /// When `mail` is `nil` (no account to send to, or one that must not get a code) the row
    /// still gets a hash nobody knows, so cooldowns and answers to guesses stay the same as for a
    /// real code and the reply does not tell the cases apart.
    func issueCode(
        emailKey: String, purpose: String, now: Date, in tx: any StoreTransaction,
        mail: (_ code: String) -> MailMessage?
    ) throws -> Int? {
        if let previous = try tx.code(emailKey: emailKey, purpose: purpose) {
            let wait = TimeInterval(configuration.codeResendCooldown) - now.timeIntervalSince(previous.createdAt)
            if wait > 0 { return Int(wait.rounded(.up)) }
        }
        let hour: TimeInterval = 3600
        let sends = try tx.incrementRateCounter(key: "code:\(purpose):\(emailKey)", now: now, window: hour)
        if sends.count > configuration.codeSendsPerHour {
            return Int((hour - now.timeIntervalSince(sends.windowStart)).rounded(.up))
        }
        let code = codes.newCode()
        let message = mail(code)
        let hash = message == nil ? SecureRandom.bytes(count: 32) : codes.hash(code: code, emailKey: emailKey, purpose: purpose)
        try tx.upsertCode(CodeRecord(
            emailKey: emailKey, purpose: purpose, codeHash: hash, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.codeTTL))))
        if let message { try Outbox.enqueue(message, in: tx, now: now) }
        return nil
    }

    /// Checks `code` against the live codes of `purposes` for an address, in the caller's
    /// transaction: a match spends the code; a miss counts a try on each live code, and the try that
    /// reaches the limit spends it.
    func checkCode(_ code: String, emailKey: String, purposes: [String], now: Date, in tx: any StoreTransaction) throws -> CodeCheck {
        let maxAttempts = configuration.codeMaxAttempts
        let candidates = try purposes.compactMap { try tx.code(emailKey: emailKey, purpose: $0) }
        guard !candidates.isEmpty else { return .invalid }
        let live = candidates.filter { $0.expiresAt > now }
        guard !live.isEmpty else { return .expired }
        let usable = live.filter { $0.attempts < maxAttempts }
        guard !usable.isEmpty else { return .spent }
        if let match = usable.first(where: { candidate in
            constantTimeEquals(candidate.codeHash, codes.hash(code: code, emailKey: emailKey, purpose: candidate.purpose))
        }) {
            try tx.deleteCode(emailKey: emailKey, purpose: match.purpose)
            return .verified(purpose: match.purpose)
        }
        var spent = false
        for candidate in usable where try tx.incrementCodeAttempts(emailKey: emailKey, purpose: candidate.purpose) >= maxAttempts {
            spent = true
        }
        return spent ? .spent : .invalid
    }
}
