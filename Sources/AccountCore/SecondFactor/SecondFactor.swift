import AccountAPI
import AccountStore
import Foundation
import Mailer
import Sodium

/// What checking a ``SecondFactorProof`` came to, decided inside the transaction that acts on it
/// (a right proof is spent there; a wrong one changes nothing).
package enum SecondFactorCheck: Sendable, Equatable {
    case totp
    case recoveryCode(left: Int)
    case wrong

    /// The `amr` of a session opened with the password and this factor.
    package var amr: [String] {
        switch self {
        case .totp: [AuthenticationMethod.password, AuthenticationMethod.otp]
        case .recoveryCode: [AuthenticationMethod.password, AuthenticationMethod.recoveryCode]
        case .wrong: [AuthenticationMethod.password]
        }
    }
}

/// Authenticator apps (RFC 6238) and recovery codes: secrets sealed with the server's key, codes
/// accepted once, recovery codes kept as keyed hashes and spent on use.
///
/// Nothing here logs or returns a secret except where the owner is shown it once (enrolment, a new
/// set of recovery codes).
package struct SecondFactor: Sendable {
    /// Seconds a login's `mfa_token` lives.
    package static let challengeLifetime: TimeInterval = 300
    /// Wrong codes that spend an `mfa_token`.
    package static let challengeAttempts = 5
    /// Recovery codes in a set.
    package static let recoveryCodeCount = 10

    /// Derives the key that seals one account's secret.
    package let secretKey: SecretBoxKey
    /// Keys the recovery codes' hashes.
    package let recoveryCodeKey: [UInt8]
    /// The issuer authenticator apps show.
    package let issuer: String
    /// Where notices go (outside the mail budget: only the account's holder causes them).
    package let outbox: Outbox
    /// Where new secrets and recovery codes are drawn from.
    package let random: Randomness

    package init(secrets: Secrets, issuer: String, outbox: Outbox, random: Randomness) throws {
        secretKey = try SecretBoxKey(bytes: secrets.totpKey)
        recoveryCodeKey = secrets.recoveryCodeKey
        self.issuer = issuer
        self.outbox = outbox
        self.random = random
    }

    // MARK: Authenticator secrets

    /// A new 160-bit secret (RFC 4226 §4 recommends 160 bits for HMAC-SHA-1).
    package func newSecret() -> [UInt8] { random.bytes(20) }

    /// The secret as the store keeps it: sealed under a key for this account alone, so a sealed
    /// secret copied to another account's row does not open.
    package func seal(_ secret: [UInt8], userID: UUID) -> [UInt8] {
        SecretBox.seal(secret, key: key(for: userID))
    }

    /// The secret of a stored factor.
    /// - Throws: ``StoreError/failure(reason:)`` when it does not open (altered, moved, or another
    ///   server key): a broken database, never a wrong code.
    func open(_ factor: TOTPFactorRecord) throws -> [UInt8] {
        guard let secret = SecretBox.open(factor.sealedSecret, key: key(for: factor.userID)) else {
            throw StoreError.failure(reason: "an authenticator secret does not open with the server's key")
        }
        return secret
    }

    private func key(for userID: UUID) -> SecretBoxKey {
        secretKey.derived(context: "totp-secret:" + userID.lowercasedText)
    }

    /// `otpauth://totp/<issuer>:<nickname>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`
    /// (the Key URI Format authenticator apps read), each part percent-encoded.
    package func otpauthURI(secret: [UInt8], nickname: String) -> String {
        let label = Self.percentEncoded(issuer) + ":" + Self.percentEncoded(nickname)
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(Self.percentEncoded(issuer))"
            + "&algorithm=SHA1&digits=\(TOTP.digits)&period=\(TOTP.period)"
    }

    /// `text` with everything but unreserved characters (RFC 3986) percent-encoded as UTF-8, so a
    /// space is `%20` (never `+`) and a colon in a name never splits the label.
    package static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz")
        allowed.formUnion(CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    // MARK: Recovery codes

    /// A new set: ``recoveryCodeCount`` codes of 10 random characters (50 bits each) from an
    /// alphabet without look-alikes, shown as `xxxxx-xxxxx`.
    package func newRecoveryCodes() -> [String] {
        var codes: [String] = []
        // Distinct, so no two rows of a set share a hash (a repeat is a 2^-50 chance).
        while codes.count < Self.recoveryCodeCount {
            let characters: [UInt8] = (0..<10).map { _ in RecoveryCodeRule.alphabet[Int(random.uniform(below: 32))] }
            let code = String(decoding: characters.prefix(5), as: UTF8.self) + "-" + String(decoding: characters.suffix(5), as: UTF8.self)
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// The keyed hash the store keeps of a recovery code of `userID`: HMAC-SHA-256 of the code's
    /// normalized form, bound to the account.
    package func hash(recoveryCode normalized: String, userID: UUID) -> [UInt8] {
        Digest.hmacSHA256(key: recoveryCodeKey, message: Array("recovery-code\u{0}\(userID.lowercasedText)\u{0}\(normalized)".utf8))
    }

    // MARK: Checking a proof

    /// Checks `proof` for `user` inside the transaction that acts on it, and spends it when right:
    /// an authenticator code is accepted only for a step later than the last one accepted (within
    /// ±1 step of `now`), decided by one conditional statement, so of two simultaneous uses of a
    /// code (on any server) one wins; a recovery code is deleted, and its owner gets a notice with
    /// how many are left.
    /// With `notify` `false` (the factor is being turned off, which has a notice of its own) a
    /// recovery code is spent without its notice. A recovery code spent is recorded through
    /// `ledger`, from `source`, whether or not it is mailed: a security event of the account, and
    /// with `logged` a `recovery_code_used` line too (a login's second step; a step-up's change
    /// tells its own).
    package func check(
        _ proof: SecondFactorProof, user: UserRecord, language: Language, now: Date, notify: Bool = true, source: EventSource,
        logged: Bool, in ledger: inout EventLedger
    ) throws -> SecondFactorCheck {
        let tx = ledger.tx
        switch proof {
        case .code(let code):
            guard let factor = try tx.totpFactor(userID: user.id), factor.confirmedAt != nil,
                let step = TOTP.matchingStep(of: code, secret: try open(factor), now: now, after: factor.lastStep),
                try tx.useTOTPStep(userID: user.id, step: step)
            else { return .wrong }
            return .totp
        case .recoveryCode(let text):
            guard let normalized = RecoveryCodeRule.normalize(text),
                let left = try tx.useRecoveryCode(userID: user.id, hash: hash(recoveryCode: normalized, userID: user.id))
            else { return .wrong }
            if notify {
                try outbox.queueNotice(MailTemplates.recoveryCodeUsed(left: left, language: language, to: user.email), in: tx, now: now)
            }
            let remaining = String(left)
            try ledger.record(DomainEvent(
                .changed(.recoveryCodeUsed, ["left": remaining], logged: logged ? .recoveryCodeUsed : nil), userID: user.id, at: now,
                source: source, ["left": remaining]))
            return .recoveryCode(left: left)
        }
    }

    /// A new set of recovery codes for `userID`, stored (as hashes) in place of the old set.
    package func replaceRecoveryCodes(userID: UUID, in tx: any StoreTransaction) throws -> [String] {
        let codes = newRecoveryCodes()
        try tx.replaceRecoveryCodes(
            userID: userID, hashes: codes.map { hash(recoveryCode: RecoveryCodeRule.normalize($0) ?? $0, userID: userID) })
        return codes
    }
}
