import AccountAPI
import AccountStore
import Foundation
import Sodium

/// Details-first sign-ups wait as pending sign-ups until their code is verified.
///
/// A sign-up without a verification token makes no account. It stores a pending sign-up keyed by
/// the address (nickname, Argon2id hash, MBTI type) that holds the nickname for `signUpHold`
/// seconds, and it does so whether the address is free or already has an account, so the
/// nickname, the cooldowns and the logins that follow are the same in both cases. The account is
/// made when the code mailed to the address is verified; for a taken address nobody has that code
/// (its owner got a notice instead), so the hold simply runs out.
package struct PendingSignUps: Sendable {
    package let nicknames: NicknameGuard
    /// Whose counts a sign-in at verification honours and clears.
    package let throttle: LoginThrottle
    /// How long a sign-up's code, and so its hold, lasts.
    package let codeLifetime: TimeInterval
    /// Seconds after the sign-up within which verifying its code may also sign in; 0 never.
    package let verifySignInWindow: TimeInterval
    /// Keys each sign-up's `signup_token` (``Secrets/signUpKey``).
    package let signUpKey: [UInt8]
    /// Where the accounts' ids are drawn from.
    package let random: Randomness

    /// Whether `user`'s nickname may be taken by the address `emailKey`: no other account has it
    /// or a look-alike (``NicknameGuard/isTaken(_:in:)``), and no live pending sign-up of another
    /// address holds it or a look-alike. A run-out hold of another address is released on the way.
    package func nicknameIsFree(_ user: UserRecord, for emailKey: String, now: Date, in tx: any StoreTransaction) throws -> Bool {
        if try nicknames.isTaken(user, in: tx) { return false }
        var holders = [try tx.pendingSignUp(usernameKey: user.usernameKey)]
        for skeleton in Set([user.usernameSkeleton, user.usernameDisplaySkeleton].compactMap { $0 }) {
            for kind in SkeletonKind.allCases { holders.append(try tx.pendingSignUp(usernameSkeleton: skeleton, kind: kind)) }
        }
        for holder in holders.compactMap({ $0 }) where holder.emailKey != emailKey {
            guard holder.expiresAt <= now else { return false }
            try tx.deletePendingSignUp(emailKey: holder.emailKey)
        }
        return true
    }

    /// Stores `pending` in place of its address's earlier pending sign-up, once the caller found
    /// its nickname free (``nicknameIsFree(_:for:now:in:)``); a simultaneous hold of the same
    /// nickname makes the store throw a conflict.
    ///
    /// Holds that ran out longer ago than a code lives are removed first: a code sent just before a
    /// hold ran out can still complete it.
    ///
    /// `pending` is stored contested when the earlier sign-up it replaces (one a code could still
    /// complete) was made by another client (``PendingSignUpRecord/client``: a sign-up kept before
    /// clients were recorded counts as another's) or was contested itself: then a code without the
    /// sign-up's `signup_token` completes nothing (``dropSupersededSignUp(emailKey:token:in:)``).
    /// The sign-up's reply is the same either way.
    package func holdSignUp(_ pending: PendingSignUpRecord, now: Date, in tx: any StoreTransaction) throws {
        try tx.deletePendingSignUps(expiredBefore: now.addingTimeInterval(-codeLifetime))
        var pending = pending
        if let replaced = try tx.pendingSignUp(emailKey: pending.emailKey) {
            let sameClient = replaced.client.flatMap { earlier in pending.client.map { constantTimeEquals(earlier, $0) } } ?? false
            pending.contested = pending.contested || replaced.contested || !sameClient
        }
        try tx.upsertPendingSignUp(pending)
    }

    /// The live pending sign-up of an address, if any.
    package func livePendingSignUp(emailKey: String, now: Date, in tx: any StoreTransaction) throws -> PendingSignUpRecord? {
        try tx.pendingSignUp(emailKey: emailKey).flatMap { $0.expiresAt > now ? $0 : nil }
    }

    /// The `signup_token` of the details-first sign-up of `emailKey` whose password hashed to
    /// `passwordHash`: base64url of an HMAC under the server's sign-up key. Every sign-up hashes
    /// its password with a new salt, so the token names that pending sign-up alone, and it is
    /// stored nowhere. A taken address's pending sign-up gets one of the same shape.
    package func signUpToken(emailKey: String, passwordHash: String) -> String {
        Base64URL.encode(signUpMAC(emailKey: emailKey, passwordHash: passwordHash))
    }

    private func signUpMAC(emailKey: String, passwordHash: String) -> [UInt8] {
        Digest.hmacSHA256(key: signUpKey, message: Array("signup\u{0}\(emailKey)\u{0}\(passwordHash)".utf8))
    }

    /// What is wrong with a request's `signup_token` before any code is tried: not of a token's
    /// shape (`invalid_format`: 43 base64url characters). It is optional. Shape only: it says
    /// nothing about any address.
    package static func signUpTokenErrors(_ token: String?) -> [FieldErrorCode] {
        guard let token else { return [] }
        let base64url = token.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return token.utf8.count == 43 && base64url ? [] : [.invalidFormat]
    }

    /// Whether a code that just proved the address (in the verifying transaction) may not complete
    /// the address's pending sign-up: it came with a `signup_token` that does not name that
    /// sign-up, or with none while the sign-up is contested (``holdSignUp(_:now:in:)``). Then the
    /// pending sign-up is dropped and `true` is returned: the caller makes nothing and answers
    /// `signup_superseded`. Without a token, an uncontested sign-up (the only one of its address,
    /// or its own client's retry) completes as it always did.
    ///
    /// A token of an earlier sign-up means a newer one replaced it, and a contested sign-up
    /// replaced another client's: maybe a stranger's with a password the owner does not know,
    /// which must not become the owner's account, let alone sign the owner's device in to it; a
    /// token of another address's sign-up names nothing here. Dropping the pending sign-up (the
    /// code is spent already) leaves nothing half done: signing up again starts afresh, alone, with
    /// no cooldown since no code is live. With nothing to complete (no pending sign-up, or the
    /// address has an account) nothing is refused.
    package func dropSupersededSignUp(emailKey: String, token: String?, in tx: any StoreTransaction) throws -> Bool {
        guard try tx.user(emailKey: emailKey) == nil, let pending = try tx.pendingSignUp(emailKey: emailKey) else { return false }
        if let token {
            let expected = signUpMAC(emailKey: pending.emailKey, passwordHash: pending.passwordHash)
            if let given = Base64URL.decode(token), constantTimeEquals(given, expected) { return false }
        } else if !pending.contested {
            return false
        }
        try tx.deletePendingSignUp(emailKey: emailKey)
        return true
    }

    /// Makes the account of the address's pending sign-up, verified, once a code proved the address
    /// (in the verifying transaction); the pending sign-up is gone either way.
    ///
    /// Returns `nil` when there is none, when the address has an account already (the pending
    /// sign-up was a stranger's, for a taken address), or when the nickname was taken after the
    /// hold ran out: the caller still gets the `email_verification_token`, which signs up with
    /// another nickname. Otherwise the account, and when its sign-up was made (for
    /// ``signInAtVerify(_:signedUpAt:now:in:)``).
    package func completePendingSignUp(emailKey: String, now: Date, in tx: any StoreTransaction) throws -> (user: UserRecord, signedUpAt: Date)? {
        guard let pending = try tx.pendingSignUp(emailKey: emailKey) else { return nil }
        return try account(from: pending, verified: true, now: now, in: tx).map { ($0, pending.createdAt) }
    }

    /// Whether verifying the code that just made `user` from its pending sign-up (made at
    /// `signedUpAt`) may also sign it in, as the request asked (`sign_in: true`), in the verifying
    /// transaction.
    ///
    /// Only within `verifySignInWindow` seconds of the sign-up, so a code guessed or read late
    /// (codes can be mailed again for a day while the nickname is held) opens no session; and
    /// not while the address or the nickname is backed off for failed logins, where the pending
    /// sign-up's failures were counted (its new account's own count starts clean). A session
    /// clears those counts, as a login clears its account's. The code itself was checked under
    /// its own limit of tries before this runs, so asking to sign in gives a guesser no more tries.
    package func signInAtVerify(_ user: UserRecord, signedUpAt: Date, now: Date, in tx: any StoreTransaction) throws -> VerifySignIn {
        let window = verifySignInWindow
        guard window > 0, now.timeIntervalSince(signedUpAt) <= window else { return .windowPassed }
        let keys = [LoginThrottle.key(unknown: user.emailKey, byEmail: true), LoginThrottle.key(unknown: user.usernameKey, byEmail: false)]
        if throttle.limits.attempts > 0 {
            var backedOff = false
            for key in keys {
                let record = try tx.lockLoginThrottle(key: key, now: now)
                if let lockedUntil = record.lockedUntil, lockedUntil > now { backedOff = true; continue }
                // A row the lock just made (or one that holds nothing) must not outlive this check.
                if record.failures == 0, record.lockouts == 0 { try throttle.clear(key: key, in: tx) }
            }
            if backedOff { return .backedOff }
        }
        for key in keys { try throttle.clear(key: key, in: tx) }
        return .signedIn
    }

    /// With `--allow-unverified-login` only: makes the unverified account of a live pending sign-up
    /// whose password a login just matched, so that it can log in before its code is verified.
    /// When a concurrent request made it a moment ago, that account (its salted hash is the pending
    /// sign-up's, so it is this sign-up's); `nil` when the pending sign-up changed or its address or
    /// nickname has another account.
    package func openPendingSignUp(_ pending: PendingSignUpRecord, now: Date, in tx: any StoreTransaction) throws -> UserRecord? {
        guard let current = try tx.pendingSignUp(emailKey: pending.emailKey) else { return try madeBefore(from: pending, in: tx) }
        guard current == pending, current.expiresAt > now else { return nil }
        return try account(from: current, verified: false, now: now, in: tx)
    }

    /// The account a pending sign-up becomes, if its address and nickname have none; the pending
    /// sign-up is removed either way.
    private func account(from pending: PendingSignUpRecord, verified: Bool, now: Date, in tx: any StoreTransaction) throws -> UserRecord? {
        try tx.deletePendingSignUp(emailKey: pending.emailKey)
        if let made = try madeBefore(from: pending, in: tx) { return made }
        let user = UserRecord(
            id: random.uuid(), username: pending.username, usernameKey: pending.usernameKey, email: pending.email,
            emailKey: pending.emailKey, passwordHash: pending.passwordHash, mbti: pending.mbti, emailVerified: verified,
            createdAt: now, updatedAt: now,
            usernameSkeleton: pending.usernameSkeleton, usernameDisplaySkeleton: pending.usernameDisplaySkeleton)
        guard try tx.user(emailKey: pending.emailKey) == nil, try !nicknames.isTaken(user, in: tx) else { return nil }
        try tx.insertUser(user)
        return user
    }

    /// The account a concurrent request already made from `pending`: the address's account with
    /// the pending sign-up's salted hash.
    private func madeBefore(from pending: PendingSignUpRecord, in tx: any StoreTransaction) throws -> UserRecord? {
        try tx.user(emailKey: pending.emailKey).flatMap { $0.passwordHash == pending.passwordHash ? $0 : nil }
    }
}

/// What a verification that asked to sign in (`sign_in: true`) came to, for the security log.
package enum VerifySignIn: String, Sendable {
    /// The new account is signed in: a session was opened.
    case signedIn = "signed_in"
    /// Too long after the sign-up (or signing in at verification is off): log in with the password.
    case windowPassed = "window_passed"
    /// The address or nickname is backed off for failed logins: log in once the back-off ends.
    case backedOff = "backed_off"
}
