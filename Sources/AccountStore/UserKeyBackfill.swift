import Foundation

/// Fills the keys SQL cannot compute for accounts written before they existed: the nickname's
/// two confusable skeletons, and the email key under the current derivation. An account still
/// waiting for it is one whose `usernameSkeleton` is `nil`; it is done in batches, one
/// transaction each, and is safe to run from several servers at once.
///
/// Two accounts can turn out to share a key they did not share before (`mina` and `rnina` share
/// a skeleton; `mina@example.com` and `ｍina@example.com` now share an email key). One of them
/// keeps it: a verified account before an unverified one, then the older, then the smaller id,
/// whichever of them is filled first. The other gets a placeholder, `duplicate:<its id>`, that no
/// nickname or address can produce: it keeps its nickname, address and password, and logs in by
/// nickname, but login and codes by that address reach the account that kept it. Each such
/// account is reported so an operator can settle it.
///
/// ```swift
/// let outcome = try await UserKeyBackfill(
///     skeletons: { (try checker.skeleton($0.usernameKey), try checker.skeleton($0.username)) },
///     emailKey: { EmailRule.key($0) }).run(on: store)
/// ```
public struct UserKeyBackfill: Sendable {
    /// An account that lost a key to another.
    public struct Displacement: Sendable, Equatable {
        /// The account given the placeholder.
        public let userID: UUID
        /// `"username"` (the skeleton) or `"email"`.
        public let field: String
        /// The account that kept the key.
        public let keptBy: UUID
    }

    /// What a run did.
    public struct Outcome: Sendable, Equatable {
        /// Accounts whose keys were filled.
        public var filled = 0
        /// Accounts that lost a key, in the order it happened.
        public var displaced: [Displacement] = []

        /// Nothing done.
        public init() {}
    }

    /// The two skeletons of an account's nickname (see ``UserRecord``).
    public let skeletons: @Sendable (UserRecord) throws -> (folded: String, displayed: String)
    /// The email key of a stored address.
    public let emailKey: @Sendable (String) -> String
    /// Accounts per transaction.
    public let batchSize: Int

    public init(
        skeletons: @escaping @Sendable (UserRecord) throws -> (folded: String, displayed: String),
        emailKey: @escaping @Sendable (String) -> String, batchSize: Int = 500
    ) {
        self.skeletons = skeletons
        self.emailKey = emailKey
        self.batchSize = batchSize
    }

    /// The placeholder key of an account that lost one; it has no `@` and is longer than any nickname.
    public static func placeholder(for id: UUID) -> String { "duplicate:\(id.uuidString.lowercased())" }

    /// Fills every account that waits, batch after batch, and returns what it did.
    ///
    /// A batch that meets a unique conflict (another server filling the same accounts, or a new
    /// sign-up taking a key in between) runs again and sees the other's work.
    public func run(on store: any AccountStore) async throws -> Outcome {
        var outcome = Outcome()
        var conflicts = 0
        var idle = 0
        while true {
            do {
                let batch = try await store.write { tx in try self.fillBatch(in: tx) }
                guard let batch else { return outcome }
                outcome.filled += batch.filled
                outcome.displaced += batch.displaced
                conflicts = 0
                // A batch of accounts another server filled meanwhile fills none; many in a row would
                // mean writes that do not stick, and a loop that never ends.
                idle = batch.filled == 0 ? idle + 1 : 0
                if idle > 10 { throw StoreError.failure(reason: "filling nickname skeletons makes no progress") }
            } catch StoreError.conflict where conflicts < 10 {
                conflicts += 1
            }
        }
    }

    /// Fills one batch; `nil` when no account waits.
    private func fillBatch(in tx: any StoreTransaction) throws -> Outcome? {
        let waiting = try tx.usersWithoutSkeleton(limit: batchSize)
        guard !waiting.isEmpty else { return nil }
        var outcome = Outcome()
        for candidate in waiting {
            // Read again: an earlier account of this batch may have taken its email key.
            guard var user = try tx.user(id: candidate.id), user.usernameSkeleton == nil else { continue }
            let (folded, displayed) = try skeletons(user)
            for (kind, skeleton) in [(SkeletonKind.folded, folded), (.displayed, displayed)] {
                var keeps = true
                if let holder = try tx.user(usernameSkeleton: skeleton, kind: kind), holder.id != user.id {
                    keeps = try settle(user, holder, field: "username", in: tx, &outcome) { $0.setSkeleton($1, kind) }
                }
                user.setSkeleton(keeps ? skeleton : Self.placeholder(for: user.id), kind)
            }
            let emailKey = emailKey(user.email)
            // An account that already lost its address to an earlier one of this run keeps the placeholder.
            if emailKey != user.emailKey, user.emailKey != Self.placeholder(for: user.id) {
                if let holder = try tx.user(emailKey: emailKey), holder.id != user.id {
                    user.emailKey = try settle(user, holder, field: "email", in: tx, &outcome) { $0.emailKey = $1 }
                        ? emailKey : Self.placeholder(for: user.id)
                } else {
                    user.emailKey = emailKey
                }
            }
            try tx.updateUser(user)
            outcome.filled += 1
        }
        return outcome
    }

    /// Decides which of two accounts keeps a key; gives the holder the placeholder when `user`
    /// wins. Returns whether `user` keeps it.
    private func settle(
        _ user: UserRecord, _ holder: UserRecord, field: String, in tx: any StoreTransaction, _ outcome: inout Outcome,
        assign: (inout UserRecord, String) -> Void
    ) throws -> Bool {
        let keeps = Self.ranks(user, before: holder)
        if keeps {
            var loser = holder
            assign(&loser, Self.placeholder(for: holder.id))
            try tx.updateUser(loser)
        }
        let lost = keeps
            ? Displacement(userID: holder.id, field: field, keptBy: user.id)
            : Displacement(userID: user.id, field: field, keptBy: holder.id)
        // Both skeletons of one pair may collide: one report.
        if !outcome.displaced.contains(lost) { outcome.displaced.append(lost) }
        return keeps
    }

    /// Verified before unverified, then older, then the smaller id: the same winner whichever
    /// account is filled first.
    static func ranks(_ a: UserRecord, before b: UserRecord) -> Bool {
        if a.emailVerified != b.emailVerified { return a.emailVerified }
        if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
        return a.id.uuidString < b.id.uuidString
    }
}

extension UserRecord {
    fileprivate mutating func setSkeleton(_ skeleton: String, _ kind: SkeletonKind) {
        switch kind {
        case .folded: usernameSkeleton = skeleton
        case .displayed: usernameDisplaySkeleton = skeleton
        }
    }
}
