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
        let account = try await SessionTestAccount.create(on: fixture.server)
        let device = fixture.device(email: account.email.uppercased())
        let manager = fixture.manager()
        _ = try await manager.restore()
        #expect(try await manager.signInWithApple(using: device.authorizer) == .linkRequired)
        #expect(await manager.state == .signedOut, "nothing linked, nothing signed in")

        try await manager.logIn(account.login)
        #expect(manager.currentUser?.appleLinked == false && manager.currentUser?.hasPassword == true)
        guard case .linked(let linked) = try await manager.linkApple(using: device.authorizer) else { throw TestFailure("not linked") }
        #expect(linked.appleLinked == true && manager.currentUser?.appleLinked == true)

        try await manager.logOut()
        guard case .signedIn(let user) = try await manager.signInWithApple(using: device.authorizer) else { throw TestFailure("no sign-in") }
        #expect(user.username == account.username)

        // Another account cannot take the same Apple ID.
        let other = try await SessionTestAccount.create(on: fixture.server)
        try await manager.logIn(other.login)
        await #expect(throws: AccountError.conflict(.appleAlreadyLinked)) { try await manager.linkApple(using: device.authorizer) }
        try await manager.logOut()

        // With a password left, unlinking is allowed; Apple then finds the address again.
        try await manager.logIn(account.login)
        try await manager.unlinkApple()
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
        let client = fixture.server.client()
        let token = try await manager.accessToken()
        let nonce = AppleNonce()
        let proof = try await apple.authorizer.authorize(nonce.hashed)
        let enrollment = try await client.enrollTOTP(TOTPEnrollRequest(appleIdentityToken: proof.identityToken, appleNonce: nonce.raw), accessToken: token)
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

        // Apple is its only way in.
        await #expect(throws: AccountError.conflict(.lastSignInMethod)) { try await manager.unlinkApple() }

        // A passkey is another; it is removed with a fresh Apple token, through the form.
        let passkeys = PasskeyListModel(session: manager, authorizer: SoftwarePasskeys().authorizer, apple: apple.authorizer)
        await passkeys.add()
        let removal = passkeys.removal(of: try #require(passkeys.passkeys.first), for: user)
        #expect(removal.provesWithApple && !removal.asksSecondFactor)
        #expect(removal.canSubmit, "no password to type")
        await removal.submit()
        #expect(removal.isRemoved)
        #expect(passkeys.passkeys.isEmpty)

        // A token from another Apple ID proves nothing.
        await passkeys.add()
        let stranger = fixture.device()
        let proof = try #require(try await manager.appleProof(using: stranger.authorizer))
        let id = try #require(passkeys.passkeys.first?.id)
        await #expect(throws: AccountError.self) { try await manager.removePasskey(id: id, proof: proof) }
        #expect(try await manager.passkeys().count == 1)

        // With the passkey kept, Apple may go.
        try await manager.unlinkApple()
        #expect(manager.currentUser?.appleLinked == false)

        // Neither a password nor Apple now: the form proves the account with its passkey.
        let alone = try #require(manager.currentUser)
        #expect(alone.hasPassword == false)
        await passkeys.add()
        let last = passkeys.removal(of: try #require(passkeys.passkeys.first), for: alone)
        #expect(last.provesWithPasskey && !last.provesWithApple && last.canSubmit, "no password to type, no Apple to ask")
        #expect(last.instructions.contains("passkeys"))
        await last.submit()
        #expect(last.isRemoved, "\(String(describing: last.message))")
        #expect(try await manager.passkeys().count == 1)
    }
}
