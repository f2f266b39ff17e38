import AccountAPI
import Foundation
import Synchronization
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// Passkeys through `SessionManager` against the account app, with the tests' software
/// authenticator behind AccountKit's seam: add, list, log in, remove (each change with its
/// step-up proof), and the person closing the system's sheet.
@Suite struct PasskeySessionTests {
    /// A server that is the tests' relying party, a verified account on it, and a manager signed in to it.
    static func signedIn() async throws -> (InProcessServer, TestAccount, SessionManager) {
        let server = try await inProcessServer(SoftwarePasskeys.serverOptions)
        let account = try await server.registered()
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
        try await manager.logIn(account.login)
        return (server, account, manager)
    }

    @Test func addListLogInAndRemove() async throws {
        let (server, account, manager) = try await Self.signedIn()
        let device = SoftwarePasskeys()
        #expect(manager.currentStepUpRequirement(for: .addPasskey)?.identity == .password, "no passkey yet: the password proves it")
        // A wrong password adds nothing and leaves the session as it is (the key that other device
        // made stays on it, unregistered).
        await #expect(throws: AccountError.invalidCredentials) {
            try await manager.addPasskey(named: "iPhone", using: SoftwarePasskeys().authorizer, proof: .password("not the password"))
        }
        #expect(try await manager.passkeys().isEmpty && manager.currentState.user != nil)
        let outcome = try await manager.addPasskey(named: "  iPhone ", using: device.authorizer, proof: .password(account.password))
        guard case .added(let passkey) = outcome else { throw TestFailure("not added: \(outcome)") }
        #expect(passkey.name == "iPhone" && passkey.algorithm == -7 && passkey.backupEligible)
        #expect(passkey.transports == ["hybrid", "internal"])
        #expect(try await manager.passkeys() == [passkey])
        #expect(await server.mail.delivered(to: account.email).contains { $0.contains("A passkey was added") })
        try await manager.logOut()

        // Another launch: no nickname, no password.
        let fresh = SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
        let login = try await fresh.logInWithPasskey(using: device.authorizer)
        guard case .signedIn(let user) = login else { throw TestFailure("not signed in: \(login)") }
        #expect(user.username == account.username)
        #expect(await fresh.state == .signedIn(user))
        let stored = try #require(try fresh.stored())
        #expect(try amr(stored.access) == ["swk", "user", "mfa"])
        #expect(try await fresh.passkeys().first?.lastUsedAt != nil)

        // The account holds a passkey and no second factor: its password alone removes nothing.
        let requirement = try await fresh.stepUpRequirement(for: .removePasskey)
        #expect(requirement.identity == .passkey && requirement.identities == [.passkey])
        await #expect(throws: AccountError.proofRequired(.passkey)) {
            try await fresh.removePasskey(id: passkey.id, proof: .password(account.password))
        }
        #expect(await fresh.state == .signedIn(user))
        try await fresh.removePasskey(id: passkey.id, proof: try #require(try await fresh.passkeyProof(using: device.authorizer)))
        #expect(try await fresh.passkeys().isEmpty)
        #expect(fresh.currentStepUpRequirement(for: .removePasskey)?.identity == .password, "none held now")

        // The device still holds it, but no account has it any more.
        try await fresh.logOut()
        await #expect(throws: AccountError.self) { try await fresh.logInWithPasskey(using: device.authorizer) }
        do {
            _ = try await fresh.logInWithPasskey(using: device.authorizer)
        } catch AccountError.refused(let problem) {
            #expect(problem.code == .passkeyInvalid)
            let message = await MainActor.run { LoginForm.message(for: .refused(problem), .en) }
            #expect(message.hasPrefix("This passkey is not on any account here any more."))
        }
        #expect(await fresh.state == .signedOut)
    }

    @Test func closingTheSheetIsAnOutcomeAndChangesNothing() async throws {
        let (server, account, manager) = try await Self.signedIn()
        let proof = AccountProof.password(account.password)
        #expect(try await manager.addPasskey(named: "iPhone", using: SoftwarePasskeys.refusing(), proof: proof) == .cancelled)
        // AuthenticationServices' own error for it, and a cancelled task, are the same outcome.
        let canceled = NSError(domain: AuthorizationError.platformDomain, code: 1001)
        #expect(try await manager.addPasskey(named: "iPhone", using: SoftwarePasskeys.refusing(canceled), proof: proof) == .cancelled)
        #expect(try await manager.addPasskey(named: "iPhone", using: SoftwarePasskeys.refusing(CancellationError()), proof: proof) == .cancelled)
        #expect(try await manager.passkeys().isEmpty)

        let signedOut = SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
        _ = try await signedOut.restore()
        #expect(try await signedOut.logInWithPasskey(using: SoftwarePasskeys.refusing()) == .cancelled)
        #expect(await signedOut.state == .signedOut)
        #expect(try signedOut.stored() == nil)

        // Any other failure of the system is an error of its own, with a sentence for people.
        let failed = NSError(domain: AuthorizationError.platformDomain, code: 1004, userInfo: [NSLocalizedDescriptionKey: "Application not associated"])
        await #expect(throws: AuthorizationError.failed(code: 1004, message: "Application not associated")) {
            try await signedOut.logInWithPasskey(using: SoftwarePasskeys.refusing(failed))
        }
        let none = NSError(domain: AuthorizationError.platformDomain, code: 1005)
        await #expect(throws: AuthorizationError.noCredential) { try await signedOut.logInWithPasskey(using: SoftwarePasskeys.refusing(none)) }
        #expect(AuthorizationError.noCredential.localizedDescription(in: .ko).hasPrefix("이 기기에 이 계정의 패스키가 없어요."))
    }

    @Test func aPasskeyLoginNeedsNoSecondFactorAndRemovalNeedsOne() async throws {
        let fixture = try await SecondFactorFixture.make(SoftwarePasskeys.serverOptions)
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        try await manager.verifySecondFactor(code: fixture.nextCode())
        let device = SoftwarePasskeys()
        // While the factor is on, adding one takes the password and a code.
        await #expect(throws: AccountError.proofRequired(.secondFactor)) {
            try await manager.addPasskey(named: "회사 노트북", using: SoftwarePasskeys().authorizer, proof: .password(fixture.account.password))
        }
        let proof = AccountProof.password(fixture.account.password, code: fixture.nextCode())
        guard case .added(let passkey) = try await manager.addPasskey(named: "회사 노트북", using: device.authorizer, proof: proof) else {
            throw TestFailure("not added")
        }
        try await manager.logOut()

        let login = try await manager.logInWithPasskey(using: device.authorizer)
        guard case .signedIn(let user) = login else { throw TestFailure("not signed in: \(login)") }
        #expect(user.mfa?.totp == true, "the account has the factor; the passkey stood for it")
        #expect(await manager.secondFactorChallenge == nil)

        // While the factor is on, the password (with a code) still may, the account holding a
        // passkey or not; the password alone does not.
        do {
            try await manager.removePasskey(id: passkey.id, proof: .password(fixture.account.password))
            Issue.record("removed without the second factor")
        } catch let error as AccountError {
            #expect(error.needsSecondFactor, "\(error)")
        }
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) {
            try await manager.removePasskey(id: passkey.id, proof: .password(fixture.account.password, code: fixture.wrongCode()))
        }
        try await manager.removePasskey(id: passkey.id, proof: .password(fixture.account.password, recoveryCode: fixture.recoveryCodes[0]))
        #expect(try await manager.passkeys().isEmpty)
    }

    /// A passkey proves a sensitive change through the same seam: the options name the account's
    /// passkeys, the proof is good once, and a closed sheet is no proof.
    @Test func aPasskeyProvesARemovalOnceInsteadOfThePassword() async throws {
        let (_, account, manager) = try await Self.signedIn()
        let device = SoftwarePasskeys()
        guard case .added(let first) = try await manager.addPasskey(named: "iPhone", using: device.authorizer, proof: .password(account.password))
        else { throw TestFailure("not added") }
        // A second passkey is proven by the first (the password alone no longer does).
        await #expect(throws: AccountError.proofRequired(.passkey)) {
            try await manager.addPasskey(named: "iPad", using: SoftwarePasskeys().authorizer, proof: .password(account.password))
        }
        let byPasskey = try #require(try await manager.passkeyProof(using: device.authorizer))
        guard case .added(let second) = try await manager.addPasskey(named: "iPad", using: device.authorizer, proof: byPasskey)
        else { throw TestFailure("not added") }

        let asked = Mutex<[PasskeyAssertionCeremony]>([])
        let watching = PasskeyAuthorizer(register: device.authorizer.register, assert: { options in
            asked.withLock { $0.append(try! options.ceremony()) }
            return try await device.authorizer.assert(options)
        })
        #expect(try await manager.passkeyProof(using: SoftwarePasskeys.refusing()) == nil, "a closed sheet proves nothing")
        let proof = try #require(try await manager.passkeyProof(using: watching))
        #expect(String(describing: proof) == "AccountProof(passkey, secondFactor: nil)")
        let offered = try #require(asked.withLock { $0.first })
        #expect(Set(offered.allowedCredentialIDs.map(Base64URL.encode)) == [first.credentialID, second.credentialID])

        try await manager.removePasskey(id: first.id, proof: proof)
        #expect(try await manager.passkeys().map(\.id) == [second.id])
        do {
            try await manager.removePasskey(id: second.id, proof: proof)
            Issue.record("a proof used twice")
        } catch AccountError.refused(let problem) {
            #expect(problem.code == .challengeInvalid)
        }
        // The remaining passkey proves its own removal; then there is nothing to prove with.
        try await manager.removePasskey(id: second.id, proof: try #require(try await manager.passkeyProof(using: device.authorizer)))
        do {
            _ = try await manager.passkeyProof(using: device.authorizer)
            Issue.record("options without a passkey")
        } catch AccountError.refused(let problem) {
            #expect(problem.code == .notFound)
        }
    }

    @Test func aPasskeyIsTheAccountsOnlyOnceAndPicksTheRightAccount() async throws {
        let (server, first, manager) = try await Self.signedIn()
        let device = SoftwarePasskeys()
        _ = try await manager.addPasskey(named: "iPhone", using: device.authorizer, proof: .password(first.password))
        try await manager.logOut()
        let second = try await server.registered()
        try await manager.logIn(second.login)
        _ = try await manager.addPasskey(named: "iPhone", using: device.authorizer, proof: .password(second.password))
        try await manager.logOut()
        #expect(device.count == 2)

        // The person picks the first account's passkey in the sheet, then the second's.
        device.choose(0)
        guard case .signedIn(let one) = try await manager.logInWithPasskey(using: device.authorizer) else { throw TestFailure("no login") }
        #expect(one.username == first.username)
        device.choose(1)
        guard case .signedIn(let two) = try await manager.logInWithPasskey(using: device.authorizer) else { throw TestFailure("no login") }
        #expect(two.username == second.username)
        #expect(try await manager.passkeys().count == 1, "each account lists its own")
    }
}
