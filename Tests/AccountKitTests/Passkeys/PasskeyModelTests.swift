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

        // Adding asks the proof of what the account holds: no passkey yet, so its password.
        await list.add()
        #expect(list.passkeys.isEmpty, "nothing to add before it starts")
        list.startAdding()
        let addition = try #require(list.addition)
        #expect(addition.identity == .password && !addition.offersPasskey && !list.canAdd)
        list.newName = "   "
        #expect(!list.canAdd && list.nameErrors == ["Give the passkey a name, like “iPhone”."])
        list.newName = String(repeating: "가", count: 65)
        #expect(list.nameErrors == ["Use at most 64 characters."])
        list.newName = "iPhone 15"
        addition.password = "wrong password"
        #expect(list.canAdd)
        await list.add()
        #expect(addition.errors(for: .password) == ["The password is not right."] && list.passkeys.isEmpty)
        addition.password = account.password
        #expect(addition.errors(for: .password).isEmpty, "typing again clears it")
        await list.add()
        #expect(list.passkeys.map(\.name) == ["iPhone 15"])
        #expect(list.notice == "Passkey “iPhone 15” added. You can log in with it now.")
        #expect(list.message == nil && list.addition == nil)

        // Closing the sheet adds nothing and says nothing.
        let closing = PasskeyListModel(session: manager, authorizer: SoftwarePasskeys.refusing())
        closing.startAdding()
        let closed = try #require(closing.addition)
        #expect(closed.identity == .passkey, "the account holds one now, and no second factor")
        await closing.add()
        #expect(closed.message == nil && closing.notice == nil && closing.passkeys.isEmpty && closing.addition != nil)
        await list.load()
        #expect(list.passkeys.count == 1)

        try await manager.logOut()
        let form = LoginForm(session: manager, passkeys: device.authorizer)
        #expect(form.offersPasskey && form.canUsePasskey)
        #expect(!LoginForm(session: manager).offersPasskey, "no authorizer, no button")
        await form.logInWithPasskey()
        guard case .signedIn(let user) = form.phase else { throw TestFailure("not signed in: \(form.phase)") }
        #expect(user.username == account.username)

        // Removing: the account proves itself with a passkey (it holds this one, and no second
        // factor), so no password is asked.
        let removal = list.removal(of: try #require(list.passkeys.first), for: user)
        #expect(removal.proof.identity == .passkey && !removal.proof.asksPassword && !removal.proof.asksSecondFactor)
        #expect(removal.canSubmit && removal.proof.confirmsInSheet)
        #expect(removal.consequence == "You can no longer log in with this passkey once it is removed.")
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
        let device = SoftwarePasskeys()
        let list = PasskeyListModel(session: manager, authorizer: device.authorizer)
        await list.load()
        list.startAdding()
        let addition = try #require(list.addition)
        #expect(addition.asksPassword && addition.asksSecondFactor && addition.offersRecoveryCode)
        addition.password = fixture.account.password
        addition.code = fixture.nextCode()
        await list.add()
        #expect(list.passkeys.count == 1)

        // With the factor on, the password and a code do; a passkey may stand for both.
        let removal = list.removal(of: try #require(list.passkeys.first), for: user)
        #expect(removal.proof.asksSecondFactor && removal.proof.offersPasskey)
        removal.proof.password = fixture.account.password
        #expect(!removal.canSubmit, "the code is missing")
        await removal.submit()
        #expect(removal.proof.errors(for: .code) == ["Enter the 6-digit code from your authenticator app."])
        removal.proof.code = fixture.wrongCode()
        await removal.submit()
        #expect(removal.proof.errors(for: .code).first?.hasPrefix("That code is not right.") == true)
        removal.proof.usePasskey()
        #expect(!removal.proof.asksPassword && !removal.proof.asksSecondFactor && removal.canSubmit)
        removal.proof.usePasskey(false)
        removal.proof.code = fixture.nextCode()
        await removal.submit()
        #expect(removal.isRemoved)

        // A factor turned on after the screen read the user: the server says so, the form asks.
        let stale = StepUpRequirement(change: .deleteAccount, secondFactorOn: false, hasPassword: true, appleLinked: false, holdsPasskey: false)
        let proof = StepUpForm(session: manager, requirement: stale)
        #expect(!proof.asksSecondFactor)
        proof.password = fixture.account.password
        let outcome = await proof.submit { try await manager.deleteAccount(proof: $0) }
        guard case .refused(.proofRequired(.secondFactor)) = outcome else { throw TestFailure("not refused for the factor: \(outcome)") }
        #expect(proof.asksSecondFactor && proof.requirement.secondFactorOn)
        #expect(proof.errors(for: .code) == ["Enter the 6-digit code from your authenticator app."])
        #expect(proof.password == fixture.account.password, "what was typed stays")
        #expect(manager.currentUser != nil, "nothing deleted")
    }
}
