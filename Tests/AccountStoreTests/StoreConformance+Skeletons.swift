import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func usernameSkeletons(_ store: any AccountStore) async throws {
        var mina = Fixture.user("Mina")
        mina.usernameSkeleton = "mina"
        mina.usernameDisplaySkeleton = "Mina"
        let (named, other) = (mina, Fixture.user("Joon"))
        try await store.write { tx in
            try tx.insertUser(named)
            try tx.insertUser(other)
        }
        #expect(try await store.read { try $0.user(usernameSkeleton: "mina", kind: .folded) } == named)
        #expect(try await store.read { try $0.user(usernameSkeleton: "Mina", kind: .displayed) } == named)
        #expect(try await store.read { try $0.user(usernameSkeleton: "Mina", kind: .folded) } == nil)
        #expect(try await store.read { try $0.user(usernameSkeleton: "mina", kind: .displayed) } == nil)

        var twin = Fixture.user("rnina")
        twin.usernameSkeleton = "mina"
        twin.usernameDisplaySkeleton = "mina"
        let lookalike = twin
        await #expect(throws: StoreError.conflict(field: "username")) { try await store.write { try $0.insertUser(lookalike) } }
        twin.usernameSkeleton = "rnina"
        twin.usernameDisplaySkeleton = "Mina"
        let shownAlike = twin
        await #expect(throws: StoreError.conflict(field: "username")) { try await store.write { try $0.insertUser(shownAlike) } }
        var claims = other
        claims.usernameSkeleton = "mina"
        let claimant = claims
        await #expect(throws: StoreError.conflict(field: "username")) { try await store.write { try $0.updateUser(claimant) } }

        claims.usernameSkeleton = "joon"
        claims.usernameDisplaySkeleton = "Joon"
        let renamed = claims
        try await store.write { try $0.updateUser(renamed) }
        #expect(try await store.read { try $0.user(id: other.id) } == renamed)
        #expect(try await store.read { try $0.user(usernameSkeleton: "joon", kind: .folded) } == renamed)
    }

    /// Every stored account has both skeletons: the store refuses one without.
    static func skeletonsRequired(_ store: any AccountStore) async throws {
        var missing = Fixture.user("Mina")
        missing.usernameSkeleton = nil
        missing.usernameDisplaySkeleton = nil
        let unnamed = missing
        await #expect(throws: StoreError.self) { try await store.write { try $0.insertUser(unnamed) } }
        #expect(try await store.read { try $0.userCount() } == 0)
    }
}
