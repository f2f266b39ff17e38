import AccountAPI
import AccountStore
import Foundation

/// The signed-in account's own record: its nickname and MBTI type changed, or the account deleted.
package struct ProfileOperations {
    package let services: Services

    /// What a change of the profile came to.
    package enum UpdateOutcome {
        /// The account as stored after the change.
        case updated(UserRecord)
    }

    /// Changes the caller's nickname and/or MBTI type to the request's (already checked); absent
    /// fields stay. A nickname taken by another account or a look-alike, or held by a pending
    /// sign-up, is `409 username_taken`; an account gone meanwhile `401 session_revoked`.
    package func update(with body: UpdateProfileRequest, of caller: SignedInCaller) async throws -> UpdateOutcome {
        let (services, userID, now) = (services, caller.userID, caller.now)
        let skeletons = try body.username.map { try services.nicknames.skeletons(of: UsernameRule.normalize($0)) }
        do {
            let updated = try await services.store.write { tx -> UserRecord? in
                guard var user = try tx.lockUser(id: userID) else { return nil }
                if let raw = body.username {
                    user.username = UsernameRule.normalize(raw)
                    user.usernameKey = UsernameRule.key(user.username)
                    user.usernameSkeleton = skeletons?.folded
                    user.usernameDisplaySkeleton = skeletons?.displayed
                    // Taken by another account or a look-alike, or held by a pending sign-up.
                    if try !services.signUps.nicknameIsFree(user, for: user.emailKey, now: now, in: tx) { throw APIError.usernameTaken }
                }
                if let mbti = body.mbti.flatMap(MBTI.init(parsing:)) { user.mbti = mbti.rawValue }
                user.updatedAt = now
                try tx.updateUser(user)
                return user
            }
            guard let updated else { throw APIError.sessionRevoked }
            return .updated(updated)
        } catch StoreError.conflict {
            throw APIError.usernameTaken
        }
    }

    /// What deleting the account came to.
    package enum DeleteOutcome: Equatable {
        case deleted
    }

    /// Deletes the caller's account, committed with what its accepted step-up spends: its sessions
    /// and codes go with it, its nickname and address are free again, and the owner is mailed at
    /// the address it had. An account gone meanwhile is `401 session_revoked`.
    package func delete(of caller: SignedInCaller, after accepted: AcceptedStepUp) async throws -> DeleteOutcome {
        let (services, user, now) = (services, caller.user, caller.now)
        // The store removes sessions, refresh tokens, every code of the address and the second
        // factor with it. A linked Apple ID's grant is revoked at Apple through the outbox.
        try await services.write(after: accepted, caller) { tx, _ in
            guard try services.deleteAccount(id: user.id, now: now, in: tx) else { throw APIError.sessionRevoked }
            try services.queueNotice(.accountDeleted, to: user.email, caller, in: tx)
        }
        services.events.record(caller.event(.logged(.accountDeleted)))
        return .deleted
    }
}
