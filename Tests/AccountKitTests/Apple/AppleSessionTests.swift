import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// Sign in with Apple through `SessionManager` against the account app, Apple played by
/// TestSupport's stand-in (its keys, its identity tokens): a new user through the profile step, a
/// known one, an address that needs linking, a second factor, linking and unlinking, and the
/// proof of an account without a password.
@Suite struct AppleSessionTests {
    @Test func aNewUserChoosesANicknameThenSignsInDirectly() async throws {
        let fixture = try await AppleFixture.start()
        let device = fixture.device()
        let manager = fixture.manager()
        _ = try await manager.restore()
        let first = try await manager.signInWithApple(using: device.authorizer)
        guard case .profileRequired(let signUp) = first else { throw TestFailure("not asked for a profile: \(first)") }
        #expect(signUp.email == device.email && signUp.isPrivateRelay)
        #expect(signUp.expiresIn == 600 && !signUp.isExpired(at: fixture.server.clock.now))
        #expect(!String(describing: first).contains(signUp.continuationToken) && !String(describing: first).contains(device.email))
        #expect(await manager.state == .signedOut, "nothing is signed in before the profile")

        let user = try await manager.completeAppleSignUp(signUp, username: "사과민수", mbti: .infp)
        #expect(user.username == "사과민수" && user.mbti == .infp && user.email == device.email && user.emailVerified)
        #expect(user.appleLinked == true && user.hasPassword == false)
        #expect(await manager.state == .signedIn(user))
        #expect(try amr(try #require(try manager.stored()).access) == ["apple"])

        // The continuation token was spent.
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) {
            try await manager.completeAppleSignUp(signUp, username: "another", mbti: .infp)
        }

        try await manager.logOut()
        let again = try await manager.signInWithApple(using: device.authorizer)
        #expect(again == .signedIn(user))
    }

    @Test func closingApplesSheetChangesNothing() async throws {
        let fixture = try await AppleFixture.start()
        let manager = fixture.manager()
        _ = try await manager.restore()
        let closing = AppleSignInAuthorizer { _ in throw NSError(domain: AuthorizationError.platformDomain, code: 1001) }
        #expect(try await manager.signInWithApple(using: closing) == .cancelled)
        #expect(await manager.state == .signedOut)
        let failing = AppleSignInAuthorizer { _ in throw NSError(domain: AuthorizationError.platformDomain, code: 1000) }
        await #expect(throws: AuthorizationError.self) { try await manager.signInWithApple(using: failing) }
    }

    @Test func anAddressWithAnAccountNeedsALoginThenALink() async throws {
        let fixture = try await AppleFixture.start()
        let account = try await fixture.server.registered()
        let device = fixture.device(email: account.email.uppercased())
        let manager = fixture.manager()
        _ = try await manager.restore()
        #expect(try await manager.signInWithApple(using: device.authorizer) == .linkRequired)
        #expect(await manager.state == .signedOut, "nothing linked, nothing signed in")

        try await manager.logIn(account.login)
        #expect(manager.currentUser?.appleLinked == false && manager.currentUser?.hasPassword == true)
        // The link is proven by what the account had: its password.
        await #expect(throws: AccountError.proofRequired(.password)) {
            try await manager.linkApple(using: device.authorizer, proof: .password(""))
        }
        guard case .linked(let linked) = try await manager.linkApple(using: device.authorizer, proof: .password(account.password)) else {
            throw TestFailure("not linked")
        }
        #expect(linked.appleLinked == true && manager.currentUser?.appleLinked == true)

        try await manager.logOut()
        guard case .signedIn(let user) = try await manager.signInWithApple(using: device.authorizer) else { throw TestFailure("no sign-in") }
        #expect(user.username == account.username)

        // Another account cannot take the same Apple ID.
        let other = try await fixture.server.registered()
        try await manager.logIn(other.login)
        await #expect(throws: AccountError.conflict(.appleAlreadyLinked)) {
            try await manager.linkApple(using: device.authorizer, proof: .password(other.password))
        }
        try await manager.logOut()

        // With a password left, unlinking is allowed; Apple then finds the address again.
        try await manager.logIn(account.login)
        await #expect(throws: AccountError.invalidCredentials) { try await manager.unlinkApple(proof: .password("not the password")) }
        try await manager.unlinkApple(proof: .password(account.password))
        #expect(manager.currentUser?.appleLinked == false)
        try await manager.logOut()
        #expect(try await manager.signInWithApple(using: device.authorizer) == .linkRequired)
    }

    @Test func anAccountWithASecondFactorAsksForItAfterApple() async throws {
        let fixture = try await AppleFixture.start()
        let apple = fixture.device()
        let manager = fixture.manager()
        _ = try await fixture.appleAccount(apple, on: manager)
        // Turn on the authenticator app with a fresh Apple token in place of the password.
        #expect(try await manager.stepUpRequirement(for: .enableSecondFactor).identity == .apple)
        let enrollment = try await manager.enrollTOTP(proof: try #require(try await manager.appleProof(using: apple.authorizer)))
        let secret = try #require(TOTPGenerator.base32Decode(enrollment.secret))
        _ = try await manager.confirmTOTP(code: TOTPGenerator.code(secret: secret, at: fixture.server.clock.nextStepInProcess()))
        try await manager.logOut()

        do {
            _ = try await manager.signInWithApple(using: apple.authorizer)
            Issue.record("signed in without the second factor")
        } catch AccountError.secondFactorRequired(let challenge) {
            #expect(await manager.state == .awaitingSecondFactor(challenge))
        }
        let user = try await manager.verifySecondFactor(code: TOTPGenerator.code(secret: secret, at: fixture.server.clock.nextStepInProcess()))
        #expect(user.mfa?.totp == true)
        #expect(try amr(try #require(try manager.stored()).access) == ["apple", "otp"])
    }

    @MainActor @Test func anAccountMadeWithAppleProvesItselfWithAppleAndKeepsAWayIn() async throws {
        let fixture = try await AppleFixture.start()
        let apple = fixture.device()
        let manager = fixture.manager()
        let user = try await fixture.appleAccount(apple, on: manager)

        #expect(StepUpRequirement(change: .unlinkApple, user: user, holdsPasskey: false).identity == .apple)

        // Apple is its only way in.
        await #expect(throws: AccountError.conflict(.lastSignInMethod)) {
            try await manager.unlinkApple(proof: try #require(try await manager.appleProof(using: apple.authorizer)))
        }

        // A token from another Apple ID proves nothing.
        let device = SoftwarePasskeys()
        let stranger = try #require(try await manager.appleProof(using: fixture.device().authorizer))
        do {
            _ = try await manager.addPasskey(named: "iPhone", using: SoftwarePasskeys().authorizer, proof: stranger)
            Issue.record("added with another Apple ID's token")
        } catch AccountError.refused(let problem) {
            #expect(problem.code == .appleTokenInvalid)
        }

        // A passkey is another way in; the form adds it after Apple's sheet (no password to type).
        let passkeys = PasskeyListModel(session: manager, authorizer: device.authorizer, apple: apple.authorizer)
        await passkeys.load()
        passkeys.startAdding()
        let addition = try #require(passkeys.addition)
        #expect(addition.identity == .apple && !addition.asksPassword && !addition.asksSecondFactor && passkeys.canAdd)
        #expect(addition.instructions == "Your account has no password: confirm it is you with Apple.")
        await passkeys.add()
        #expect(passkeys.passkeys.count == 1 && passkeys.addition == nil, "\(String(describing: addition.message))")

        // Holding a passkey and no second factor, the account proves itself with it from now on:
        // Apple's token is refused, and the form asks for the passkey.
        let id = try #require(passkeys.passkeys.first?.id)
        await #expect(throws: AccountError.proofRequired(.passkey)) {
            try await manager.removePasskey(id: id, proof: try #require(try await manager.appleProof(using: apple.authorizer)))
        }
        let withPasskey = try #require(manager.currentUser)
        #expect(manager.currentStepUpRequirement(for: .unlinkApple)?.identity == .passkey)

        // With the passkey kept, Apple may go.
        try await manager.unlinkApple(proof: try #require(try await manager.passkeyProof(using: device.authorizer)))
        #expect(manager.currentUser?.appleLinked == false)

        // Neither a password nor Apple now: the forms prove the account with its passkey.
        let alone = try #require(manager.currentUser)
        #expect(alone.hasPassword == false && withPasskey.appleLinked == true)
        passkeys.startAdding()
        await passkeys.add()
        #expect(passkeys.passkeys.count == 2)
        let last = passkeys.removal(of: try #require(passkeys.passkeys.first), for: alone)
        #expect(last.proof.identity == .passkey && !last.proof.offersPasskey && last.canSubmit, "no password to type, no Apple to ask")
        #expect(last.proof.instructions.contains("passkeys"))
        await last.submit()
        #expect(last.isRemoved, "\(String(describing: last.message))")
        #expect(try await manager.passkeys().count == 1)
    }
}
