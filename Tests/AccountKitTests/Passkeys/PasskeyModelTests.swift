import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// The passkey screens' models against the account app: the login screen's passkey button, the
/// profile's list with adding one, and the removal form.
@MainActor @Suite struct PasskeyModelTests {
    @Test func theProfileAddsListsAndRemovesAndTheLoginFormSignsIn() async throws {
        let (server, account, manager) = try await PasskeySessionTests.signedIn()
        let device = SoftwarePasskeys()
        let list = PasskeyListModel(session: manager, authorizer: device.authorizer)
        await list.load()
        #expect(list.isLoaded && list.passkeys.isEmpty)
        #expect(!list.newName.isEmpty && list.nameErrors.isEmpty, "a name is suggested from the device")

        list.newName = "   "
        #expect(!list.canAdd && list.nameErrors == ["Give the passkey a name, like “iPhone”."])
        list.newName = String(repeating: "가", count: 65)
        #expect(list.nameErrors == ["Use at most 64 characters."])
        list.newName = "iPhone 15"
        await list.add()
        #expect(list.passkeys.map(\.name) == ["iPhone 15"])
        #expect(list.notice == "Passkey “iPhone 15” added. You can log in with it now.")
        #expect(list.message == nil)

        // Closing the sheet adds nothing and says nothing.
        let closing = PasskeyListModel(session: manager, authorizer: SoftwarePasskeys.refusing())
        await closing.add()
        #expect(closing.message == nil && closing.notice == nil && closing.passkeys.isEmpty)
        await list.load()
        #expect(list.passkeys.count == 1)

        try await manager.logOut()
        let form = LoginForm(session: manager, passkeys: device.authorizer)
        #expect(form.offersPasskey && form.canUsePasskey)
        #expect(!LoginForm(session: manager).offersPasskey, "no authorizer, no button")
        await form.logInWithPasskey()
        guard case .signedIn(let user) = form.phase else { throw TestFailure("not signed in: \(form.phase)") }
        #expect(user.username == account.username)

        // Removing: the password is asked; a wrong one shows under it.
        let removal = list.removal(of: try #require(list.passkeys.first), for: user)
        #expect(!removal.asksSecondFactor && !removal.provesWithApple && !removal.canSubmit)
        removal.password = "wrong password"
        await removal.submit()
        #expect(removal.errors(for: .password) == ["The password is not right."])
        #expect(!removal.isRemoved)
        removal.password = account.password
        #expect(removal.errors(for: .password).isEmpty, "typing again clears it")
        await removal.submit()
        #expect(removal.isRemoved && removal.message == nil)
        #expect(list.passkeys.isEmpty, "the list follows")
        _ = server
    }

    @Test func theLoginFormStaysQuietWhenTheSheetIsClosedAndSaysWhenTheDeviceFails() async throws {
        let server = try await inProcessServer(SoftwarePasskeys.serverOptions)
        let manager = SessionManager.inMemory(server.client())
        let closing = LoginForm(session: manager, passkeys: SoftwarePasskeys.refusing())
        closing.identifier = "민수"
        await closing.logInWithPasskey()
        #expect(closing.phase == .idle && closing.message == nil)
        #expect(closing.identifier == "민수", "what was typed stays")

        let failing = LoginForm(
            session: manager, passkeys: SoftwarePasskeys.refusing(NSError(domain: AuthorizationError.platformDomain, code: 1004)))
        await failing.logInWithPasskey()
        #expect(failing.message?.hasPrefix("The system could not complete the request.") == true)
        failing.identifier = "a"
        #expect(failing.phase == .idle && failing.message == nil, "editing clears it")

        // A device without passkeys for this server.
        let empty = LoginForm(session: manager, passkeys: SoftwarePasskeys().authorizer)
        await empty.logInWithPasskey()
        #expect(empty.phase == .authorizationFailed(.noCredential))
    }

    @Test func theRemovalFormAsksForTheSecondFactorWhileItIsOn() async throws {
        let fixture = try await SecondFactorFixture.make(SoftwarePasskeys.serverOptions)
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        let user = try await manager.verifySecondFactor(code: fixture.nextCode())
        let list = PasskeyListModel(session: manager, authorizer: SoftwarePasskeys().authorizer)
        await list.add()
        let removal = list.removal(of: try #require(list.passkeys.first), for: user)
        #expect(removal.asksSecondFactor)
        removal.password = fixture.account.password
        #expect(!removal.canSubmit, "the code is missing")
        removal.code = fixture.wrongCode()
        await removal.submit()
        #expect(removal.errors(for: .code).first?.hasPrefix("That code is not right.") == true)
        removal.code = fixture.nextCode()
        await removal.submit()
        #expect(removal.isRemoved)

        // A factor turned on after the screen read the user: the server says so, the form asks.
        let stale = User(
            id: user.id, username: user.username, email: user.email, emailVerified: true, mbti: user.mbti, createdAt: user.createdAt,
            mfa: SecondFactorStatus(totp: false, recoveryCodesLeft: 0))
        await list.add()
        let second = list.removal(of: try #require(list.passkeys.first), for: stale)
        #expect(!second.asksSecondFactor)
        second.password = fixture.account.password
        await second.submit()
        #expect(second.asksSecondFactor && !second.isRemoved)
        #expect(second.errors(for: .code) == ["Enter the 6-digit code from your authenticator app."])
    }
}
