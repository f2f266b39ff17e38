import Foundation

/// Sign-ups waiting for their code (`pending_signups`).
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol PendingSignUpsTransaction {
    /// Stores a pending sign-up, replacing the one of the same address; throws
    /// `.conflict(field: "username")` when another address's pending sign-up has the nickname key or
    /// one of its skeletons.
    func upsertPendingSignUp(_ pending: PendingSignUpRecord) throws
    func pendingSignUp(emailKey: String) throws -> PendingSignUpRecord?
    func pendingSignUp(usernameKey: String) throws -> PendingSignUpRecord?
    /// The pending sign-up whose skeleton of `kind` is `usernameSkeleton`, if any.
    func pendingSignUp(usernameSkeleton: String, kind: SkeletonKind) throws -> PendingSignUpRecord?
    @discardableResult func deletePendingSignUp(emailKey: String) throws -> Bool
    /// Removes pending sign-ups that expired at or before `before`; returns how many.
    @discardableResult func deletePendingSignUps(expiredBefore before: Date) throws -> Int
}
