import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// When a new session state takes the account screens back to their root.
@Suite struct RootTransitionTests {
    static let user = NavigationTests.user

    static func user(_ user: User, withSecondFactor on: Bool) -> User {
        User(
            id: user.id, username: user.username, email: user.email, emailVerified: user.emailVerified, mbti: user.mbti,
            createdAt: user.createdAt, mfa: SecondFactorStatus(totp: on, recoveryCodesLeft: on ? 10 : 0))
    }

    @Test func signingInOrOutGoesBackToTheRoot() {
        #expect(AccountNavigation.popsToRoot(from: .logIn, to: .profile(Self.user)))
        #expect(AccountNavigation.popsToRoot(from: .profile(Self.user), to: .logIn))
        #expect(AccountNavigation.popsToRoot(from: .waiting, to: .logIn))
        #expect(AccountNavigation.popsToRoot(from: .profile(Self.user), to: .waiting))
    }

    @Test func aNewerCopyOfTheSameUserKeepsTheScreensAboveTheProfile() {
        let enrolled = Self.user(Self.user, withSecondFactor: true)
        #expect(!AccountNavigation.popsToRoot(from: .profile(Self.user), to: .profile(enrolled)))
        #expect(!AccountNavigation.popsToRoot(from: .profile(enrolled), to: .profile(Self.user)))
        #expect(!AccountNavigation.popsToRoot(from: .logIn, to: .logIn))
    }

    @Test func anotherAccountGoesBackToTheRoot() {
        let other = User(
            id: UUID(), username: "지우", email: "jiwoo@example.com", emailVerified: true, mbti: .intj,
            createdAt: Self.user.createdAt)
        #expect(AccountNavigation.popsToRoot(from: .profile(Self.user), to: .profile(other)))
    }
}
