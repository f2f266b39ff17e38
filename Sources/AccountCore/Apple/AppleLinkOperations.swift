import AccountAPI
import AccountStore
import Foundation

/// The signed-in caller's Apple ID: linked from a fresh identity token, or unlinked with its grant
/// at Apple revoked, each with the step-up proof of what the account had before.
package struct AppleLinkOperations {
    package let services: Services

    /// What linking an Apple ID came to.
    package enum LinkOutcome: Sendable {
        /// Linked now: the account as it is after.
        case linked(UserRecord)
        /// This Apple ID was linked to the account already.
        case alreadyLinked(UserRecord)
        /// The token was accepted before.
        case replayed
    }

    /// What the transaction of a link came to.
    private enum Link: Sendable { case linked(UserRecord), already(UserRecord), taken, gone, replayed }

    /// Links `identity`'s Apple ID to the caller's account once `stepUp` passed, exchanging `code`
    /// for Apple's grant (only after every local check and the proof). An Apple ID linked to
    /// another account is `409 apple_already_linked`; an account gone meanwhile `session_revoked`.
    package func link(_ identity: AppleIdentity, code: String?, to caller: SignedInCaller, after stepUp: StepUp) async throws -> LinkOutcome {
        let (services, userID, now) = (self.services, caller.userID, caller.now)
        let linkedElsewhere = try await services.store.read { tx in
            try tx.appleIdentity(subject: identity.subject).map { $0.userID != userID } ?? false
        }
        guard !linkedElsewhere else {
            services.events.record(caller.event(.logged(.appleTokenRefused), ["via": "apple_link", "reason": "linked_elsewhere"]))
            throw APIError.appleAlreadyLinked
        }
        let accepted = try await services.check(stepUp, caller)
        let sealed = await services.apple.grants.exchange(code: code, clientID: identity.clientID, subject: identity.subject)
        let link = try await services.write(after: accepted, caller) { tx, ledger -> Link in
            guard let user = try tx.lockUser(id: userID) else { return .gone }
            guard try AppleSignIn.spend(identity, in: tx) else { return .replayed }
            if let current = try tx.appleIdentity(subject: identity.subject) {
                guard current.userID == userID else { return .taken }
                if let sealed { try tx.setAppleRefreshToken(subject: identity.subject, sealed: sealed) }
                return .already(user)
            }
            let record = AppleIdentityRecord(
                subject: identity.subject, userID: userID, clientID: identity.clientID, email: identity.email,
                sealedRefreshToken: sealed, createdAt: now)
            guard try tx.insertAppleIdentity(record) else { return .taken }
            try services.recordChange(
                .providerLinked(provider: "Apple"), caller.event(.changed(.appleLinked, logged: .appleLinked)), of: user, caller, in: &ledger)
            return .linked(try tx.user(id: userID) ?? user)
        }
        switch link {
        case .linked(let user): return .linked(user)
        case .already(let user): return .alreadyLinked(user)
        case .taken:
            services.events.record(caller.event(.logged(.appleTokenRefused), ["via": "apple_link", "reason": "linked_elsewhere"]))
            throw APIError.appleAlreadyLinked
        case .gone: throw APIError.sessionRevoked
        case .replayed: return .replayed
        }
    }

    /// Whether the caller's account keeps a way to sign in without Apple, read before and again in
    /// the transaction of an unlink.
    private enum Unlinkable: Sendable { case unlinkable, lastMethod, notLinked }

    /// Refuses an unlink before its step-up is read: `404` when no Apple ID is linked, `409
    /// last_sign_in_method` when the account has no password and no passkey.
    package func checkUnlinkable(_ caller: SignedInCaller) async throws {
        let userID = caller.userID
        let unlinkable = try await services.store.read { tx -> Unlinkable in
            guard let user = try tx.user(id: userID), try tx.appleIdentity(userID: userID) != nil else { return .notLinked }
            let passkeys = try tx.passkeyCount(userID: userID)
            return user.hasPassword || passkeys > 0 ? .unlinkable : .lastMethod
        }
        try Self.refuse(unlinkable)
    }

    /// Unlinks the caller's Apple ID once `stepUp` passed, and queues the revocation of its grant
    /// at Apple with it; refused as ``checkUnlinkable(_:)`` refuses when that changed meanwhile.
    package func unlink(of caller: SignedInCaller, after stepUp: StepUp) async throws {
        let (userID, now, grants) = (caller.userID, caller.now, services.apple.grants)
        let accepted = try await services.check(stepUp, caller)
        let unlinkable = try await services.write(after: accepted, caller) { tx, ledger -> Unlinkable in
            guard let user = try tx.lockUser(id: userID), try tx.appleIdentity(userID: userID) != nil else { return .notLinked }
            let passkeys = try tx.passkeyCount(userID: userID)
            guard user.hasPassword || passkeys > 0 else { return .lastMethod }
            guard let removed = try tx.deleteAppleIdentity(userID: userID) else { return .notLinked }
            try grants.queueRevocation(of: removed.sealedRefreshToken, subject: removed.subject, clientID: removed.clientID, in: tx, now: now)
            try services.recordChange(
                .providerUnlinked(provider: "Apple"), caller.event(.changed(.appleUnlinked, logged: .appleUnlinked)), of: user, caller,
                in: &ledger)
            return .unlinkable
        }
        try Self.refuse(unlinkable)
    }

    /// Throws the refusal of an unlink that cannot be made.
    private static func refuse(_ unlinkable: Unlinkable) throws {
        switch unlinkable {
        case .notLinked: throw APIError.notFound
        case .lastMethod: throw APIError.lastSignInMethod
        case .unlinkable: break
        }
    }
}
