import AccountAPI
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import AccountKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server in memory for the step-up's tests: it answers every change of how the account signs
/// in as the real one does when the proof is right (or with a `422` of the test's choosing), and
/// keeps each request's JSON body, so a test reads what the SDK sent.
final class StepUpFakeServer: Sendable {
    struct Sent: @unchecked Sendable {
        let method: String
        let path: String
        let body: [String: Any]
    }

    let user: User
    let passkeys: [Passkey]
    private let sent = Mutex<[Sent]>([])
    private let refusals = Mutex<[String: FieldErrors]>([:])

    init(user: User, passkeys: [Passkey] = []) {
        self.user = user
        self.passkeys = passkeys
    }

    static let passkey = Passkey(
        id: UUID(uuidString: "3E5D1A20-7C4B-4F9E-8A61-2B0C9D8E7F10")!, name: "iPhone", credentialID: "Y3JlZA", algorithm: -7,
        backupEligible: true, backedUp: true, transports: ["internal"], createdAt: Date(timeIntervalSince1970: 1_780_000_000), lastUsedAt: nil)

    /// A user with a password, Apple unlinked, the second factor as `totp` says.
    static func user(totp: Bool = false, hasPassword: Bool = true, appleLinked: Bool = false) -> User {
        User(
            id: UUID(uuidString: "5F0B7C2E-3D44-4B5A-9C1E-2A6F8D9B0C11")!, username: "민수", email: "minsu@example.com", emailVerified: true,
            mbti: .enfp, createdAt: Date(timeIntervalSince1970: 1_780_000_000), mfa: SecondFactorStatus(totp: totp, recoveryCodesLeft: totp ? 10 : 0),
            appleLinked: appleLinked, hasPassword: hasPassword)
    }

    /// From now on, `method path` answers `422 validation_failed` with `errors` (none: as the
    /// server does when the proof is right).
    func refuse(_ method: String, _ path: String, _ errors: FieldErrors) {
        refusals.withLock { $0["\(method) \(path)"] = errors.isEmpty ? nil : errors }
    }

    /// The requests sent so far, oldest first.
    var requests: [Sent] { sent.withLock { $0 } }

    /// The body of the last `method path` request.
    func body(_ method: String, _ path: String) -> [String: Any]? {
        requests.last { $0.method == method && $0.path == path }?.body
    }

    /// A signed-in manager over this server.
    func signedIn(language: Language = .en) async throws -> SessionManager {
        let store = InMemoryCredentialStore()
        let client = AccountClient(baseURL: URL(string: "http://step-up.invalid")!, language: language, transport: { try self.answer($0) })
        let manager = SessionManager(client: client, store: store)
        let pair = TokenPair(access: "access", refresh: "refresh", expiresIn: 900, refreshExpiresIn: 86_400, user: user)
        try store.store(key: manager.credentialKey, value: StoredSession.encoder.encode(StoredSession(pair: pair, receivedAt: Date())))
        _ = try await manager.restore()
        return manager
    }

    /// The device's passkeys, as a phone's sheet answers (any options, fixed credentials).
    static let device = PasskeyAuthorizer(
        register: { _ in
            PasskeyRegistrationCredential(
                id: "bmV3", rawId: "bmV3", response: .init(clientDataJSON: "e30", attestationObject: "o2Nm", transports: ["internal"]))
        },
        assert: { _ in
            PasskeyAssertionCredential(
                id: "Y3JlZA", rawId: "Y3JlZA", response: .init(clientDataJSON: "e30", authenticatorData: "YXV0aA", signature: "c2ln", userHandle: nil))
        })

    /// Apple's sheet, answering any nonce.
    static let apple = AppleSignInAuthorizer { _ in AppleIDAuthorization(identityToken: "apple.identity.token", authorizationCode: "code", user: "apple-user") }

    private func answer(_ request: URLRequest) throws -> (Data, URLResponse) {
        let method = request.httpMethod ?? "GET"
        let path = request.url?.path ?? ""
        let body = request.httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        sent.withLock { $0.append(Sent(method: method, path: path, body: body)) }
        let options = PasskeyRequestOptions(challenge: "Y2hhbGxlbmdl", timeout: 300_000, rpId: "example.com")
        let (status, reply): (Int, (any Encodable)?)
        if let errors = refusals.withLock({ $0["\(method) \(path)"] }) {
            (status, reply) = (422, Problem.make(.validationFailed, status: 422, language: .en, errors: errors))
        } else {
            (status, reply) = switch (method, path) {
            case ("GET", "/auth/me"), ("POST", "/auth/apple/link"): (200, user)
            case ("GET", "/auth/passkeys"): (200, PasskeyList(passkeys: passkeys))
            case ("POST", "/auth/passkeys/register/options"):
                (200, PasskeyCreationOptions(
                    rp: PasskeyRelyingParty(id: "example.com", name: "MBTI"), user: PasskeyUserEntity(id: "dXNlcg", name: "민수", displayName: "민수"),
                    challenge: "Y2hhbGxlbmdl", pubKeyCredParams: [PasskeyCredentialParameters(alg: -7)], timeout: 300_000, excludeCredentials: []))
            case ("POST", "/auth/passkeys/register"): (201, Self.passkey)
            case ("POST", "/auth/passkeys/reauth/options"), ("POST", "/auth/passkeys/login/options"): (200, options)
            case ("POST", "/auth/mfa/totp"): (200, TOTPEnrollment(secret: "JBSWY3DPEHPK3PXP", otpauthURI: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP"))
            case ("POST", "/auth/mfa/recovery-codes"): (200, RecoveryCodes(recoveryCodes: ["abcde-12345"]))
            default: (204, nil)
            }
        }
        let data = try reply.map { try AccountJSON.makeEncoder().encode($0) } ?? Data()
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        return (data, response)
    }
}

/// The step-up proof without a server: what each call sends, which proof an account needs, the
/// server's `422` for a missing one, and the shared proof form.
@Suite struct StepUpTests {
    /// The proof's members of `body`: those of ``StepUpProof`` (the password under `passwordKey`).
    static func proofMembers(_ body: [String: Any], passwordKey: String = "password") -> [String: String] {
        var members: [String: String] = [:]
        for name in StepUpProof.Member.allCases.map(\.rawValue) + ["current_password"] {
            guard let value = body[name] else { continue }
            members[name] = value as? String ?? "<object>"
        }
        return members
    }

    @Test func everyChangeSendsItsProofBesideItsOwnMembers() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user(totp: true))
        let manager = try await server.signedIn()
        let proof = AccountProof.password("correct horse battery", code: "123 456")

        _ = try await manager.addPasskey(named: "iPhone", using: StepUpFakeServer.device, proof: proof)
        try await manager.removePasskey(id: StepUpFakeServer.passkey.id, proof: proof)
        _ = try await manager.linkApple(using: StepUpFakeServer.apple, proof: proof)
        try await manager.unlinkApple(proof: proof)
        _ = try await manager.enrollTOTP(proof: proof)
        try await manager.disableTOTP(proof: proof)
        _ = try await manager.replaceRecoveryCodes(proof: proof)
        try await manager.changePassword(newPassword: "another long passphrase 42", proof: proof)
        try await manager.deleteAccount(proof: proof)

        let passkeyPath = "/auth/passkeys/" + StepUpFakeServer.passkey.id.uuidString.lowercased()
        let changes = [
            ("POST", "/auth/passkeys/register"), ("DELETE", passkeyPath), ("POST", "/auth/apple/link"), ("DELETE", "/auth/apple/link"),
            ("POST", "/auth/mfa/totp"), ("DELETE", "/auth/mfa/totp"), ("POST", "/auth/mfa/recovery-codes"), ("DELETE", "/auth/me"),
        ]
        for (method, path) in changes {
            let body = try #require(server.body(method, path), "\(method) \(path) was not sent")
            #expect(Self.proofMembers(body) == ["password": "correct horse battery", "code": "123456"], "\(method) \(path)")
        }
        let change = try #require(server.body("POST", "/auth/password/change"))
        #expect(Self.proofMembers(change) == ["current_password": "correct horse battery", "code": "123456"])
        #expect(change["new_password"] as? String == "another long passphrase 42")
        // The change's own members sit beside the proof's.
        let register = try #require(server.body("POST", "/auth/passkeys/register"))
        #expect(register["name"] as? String == "iPhone" && register["credential"] is [String: Any])
        let link = try #require(server.body("POST", "/auth/apple/link"))
        #expect(link["identity_token"] as? String == "apple.identity.token" && link["nonce"] is String)
        #expect(await manager.state == .signedOut, "the deletion signed out")
    }

    @Test func aProofOfAppleOrAPasskeyAndARecoveryCodeGoOnTheWireAsTheServerReadsThem() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user(totp: true, hasPassword: false, appleLinked: true))
        let manager = try await server.signedIn()
        var recovery = SecondFactorEntry(method: .recoveryCode)
        recovery.recoveryCode = " abcde-12345 "
        let apple = try #require(try await manager.appleProof(using: StepUpFakeServer.apple, secondFactor: recovery))
        try await manager.deleteAccount(proof: apple)
        let body = try #require(server.body("DELETE", "/auth/me"))
        #expect(Self.proofMembers(body).keys.sorted() == ["apple_identity_token", "apple_nonce", "recovery_code"])
        #expect(body["apple_identity_token"] as? String == "apple.identity.token" && body["recovery_code"] as? String == "abcde-12345")

        let again = try await StepUpFakeServer(user: StepUpFakeServer.user()).signedIn()
        let passkey = try #require(try await again.passkeyProof(using: StepUpFakeServer.device))
        let wire = StepUpProof(passkey)
        #expect(wire.passkeyAssertion?.id == "Y3JlZA" && wire.password == nil && wire.code == nil)
        #expect(StepUpProof(.password("pw")) == StepUpProof(password: "pw"), "no second factor: no code member")
        for text in RedactionTests.everyText(of: apple) { #expect(!text.contains("apple.identity.token") && !text.contains("abcde")) }
    }

    @Test func thePasswordFormsForwardToTheProofOnes() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user(totp: true))
        let manager = try await server.signedIn()
        _ = try await manager.enrollTOTP(password: "pw")
        #expect(Self.proofMembers(try #require(server.body("POST", "/auth/mfa/totp"))) == ["password": "pw"])
        try await manager.disableTOTP(password: "pw", recoveryCode: "ABCDE-12345")
        #expect(Self.proofMembers(try #require(server.body("DELETE", "/auth/mfa/totp"))) == ["password": "pw", "recovery_code": "ABCDE-12345"])
        _ = try await manager.replaceRecoveryCodes(password: "pw", code: "654 321")
        #expect(Self.proofMembers(try #require(server.body("POST", "/auth/mfa/recovery-codes"))) == ["password": "pw", "code": "654321"])
        try await manager.deleteAccount(password: "pw")
        #expect(Self.proofMembers(try #require(server.body("DELETE", "/auth/me"))) == ["password": "pw"])
    }

    // MARK: What an account needs

    struct Case: Sendable, CustomTestStringConvertible {
        let change: SensitiveChange
        let totp: Bool, password: Bool, apple: Bool, passkey: Bool
        let identities: [StepUpRequirement.Identity]
        let withPassword: StepUpRequirement.SecondFactor
        let withPasskey: StepUpRequirement.SecondFactor
        var testDescription: String { "\(change) totp:\(totp) password:\(password) apple:\(apple) passkey:\(passkey)" }
    }

    static let cases: [Case] = [
        // A password account: the password, with a code while the factor is on.
        Case(change: .deleteAccount, totp: false, password: true, apple: false, passkey: false, identities: [.password], withPassword: .none, withPasskey: .none),
        Case(change: .changePassword, totp: true, password: true, apple: false, passkey: false, identities: [.password], withPassword: .codeOrRecoveryCode, withPasskey: .none),
        // Holding a passkey and no factor: the passkey only.
        Case(change: .addPasskey, totp: false, password: true, apple: false, passkey: true, identities: [.passkey], withPassword: .none, withPasskey: .none),
        Case(change: .enableSecondFactor, totp: false, password: true, apple: true, passkey: true, identities: [.passkey], withPassword: .none, withPasskey: .none),
        // Holding a passkey with the factor on: the password and a code, or the passkey alone.
        Case(change: .removePasskey, totp: true, password: true, apple: false, passkey: true, identities: [.password, .passkey], withPassword: .codeOrRecoveryCode, withPasskey: .none),
        // Turning it off takes a code always; new recovery codes an authenticator code always.
        Case(change: .disableSecondFactor, totp: true, password: true, apple: false, passkey: true, identities: [.password, .passkey], withPassword: .codeOrRecoveryCode, withPasskey: .codeOrRecoveryCode),
        Case(change: .replaceRecoveryCodes, totp: true, password: true, apple: false, passkey: false, identities: [.password], withPassword: .authenticatorCode, withPasskey: .authenticatorCode),
        // No password: Apple's token; neither a password nor Apple: a passkey.
        Case(change: .unlinkApple, totp: false, password: false, apple: true, passkey: false, identities: [.apple], withPassword: .none, withPasskey: .none),
        Case(change: .linkApple, totp: true, password: false, apple: true, passkey: true, identities: [.apple, .passkey], withPassword: .codeOrRecoveryCode, withPasskey: .none),
        Case(change: .linkApple, totp: false, password: false, apple: false, passkey: true, identities: [.passkey], withPassword: .none, withPasskey: .none),
    ]

    @Test(arguments: cases)
    func theRequirementIsTheServersRule(_ rule: Case) {
        let requirement = StepUpRequirement(
            change: rule.change, secondFactorOn: rule.totp, hasPassword: rule.password, appleLinked: rule.apple, holdsPasskey: rule.passkey)
        #expect(requirement.identities == rule.identities)
        #expect(requirement.identity == rule.identities[0])
        #expect(requirement.acceptsPasskey == rule.identities.contains(.passkey))
        #expect(requirement.secondFactor(with: .password) == rule.withPassword)
        #expect(requirement.secondFactor(with: .passkey) == rule.withPasskey)
    }

    @Test func theRequirementOfAUserAndWhatAProofLacks() {
        let appleMade = StepUpRequirement(change: .deleteAccount, user: StepUpFakeServer.user(hasPassword: false, appleLinked: true), holdsPasskey: false)
        #expect(appleMade.identity == .apple)
        // A server from before `has_password` and `apple_linked`: a password.
        let old = User(id: UUID(), username: "a", email: "a@example.com", emailVerified: true, mbti: .intj, createdAt: Date())
        #expect(StepUpRequirement(change: .deleteAccount, user: old, holdsPasskey: false).identity == .password)

        let codes = StepUpRequirement(change: .replaceRecoveryCodes, user: StepUpFakeServer.user(totp: true), holdsPasskey: false)
        #expect(codes.missing(in: .password("pw")) == .secondFactor)
        #expect(codes.missing(in: .password("pw", recoveryCode: "abcde-12345")) == .secondFactor, "a recovery code cannot make new ones")
        #expect(codes.missing(in: .password("pw", code: "123456")).isEmpty)
        #expect(codes.missing(in: AccountProof(.apple(identityToken: "t", nonce: "n"), secondFactor: nil)) == [.password, .secondFactor])
        let held = StepUpRequirement(change: .addPasskey, user: StepUpFakeServer.user(), holdsPasskey: true)
        #expect(held.missing(in: .password("pw")) == .passkey)
    }

    @Test func whatTheServerMissedIsLearned() {
        var requirement = StepUpRequirement(change: .changePassword, secondFactorOn: false, hasPassword: true, appleLinked: false, holdsPasskey: false)
        requirement.learn(.secondFactor)
        #expect(requirement.identity == .password && requirement.secondFactor(with: .password) == .codeOrRecoveryCode)
        requirement.learn(.passkey)
        #expect(requirement.identity == .passkey && requirement.identities == [.passkey])
        var apple = StepUpRequirement(change: .unlinkApple, secondFactorOn: false, hasPassword: true, appleLinked: false, holdsPasskey: false)
        apple.learn(.apple)
        #expect(apple.identity == .apple)
    }

    // MARK: The server's 422

    @Test func aMissingProofIsItsOwnErrorOnlyFromAChangeThatTakesOne() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user())
        let manager = try await server.signedIn()
        var passkeyOnly = FieldErrors()
        passkeyOnly.add(.required, to: "passkey_assertion")
        server.refuse("DELETE", "/auth/me", passkeyOnly)
        do {
            try await manager.deleteAccount(proof: .password("pw"))
            Issue.record("not refused")
        } catch let error as AccountError {
            #expect(error == .proofRequired(.passkey) && error.missingProof == .passkey && !error.needsSecondFactor)
            #expect(error.localizedDescription(in: .en) == "Your account has a passkey, so a change like this needs one of your passkeys rather than the password.")
            #expect(error.localizedDescription(in: .ko) == "패스키가 있는 계정이라 이 변경은 비밀번호 대신 패스키로 확인해야 해요.")
        }

        var both = FieldErrors()
        both.add(.required, to: "current_password")
        both.add(.required, to: "code")
        server.refuse("POST", "/auth/password/change", both)
        await #expect(throws: AccountError.proofRequired([.password, .secondFactor])) {
            try await manager.changePassword(newPassword: "another long passphrase 42", proof: .password(""))
        }

        // Beside an error of the change's own, it stays a field error; its proof part is still read.
        var mixed = FieldErrors()
        mixed.add(.tooCommon, to: "new_password")
        mixed.add(.required, to: "code")
        server.refuse("POST", "/auth/password/change", mixed)
        do {
            try await manager.changePassword(newPassword: "password1", proof: .password("pw"))
            Issue.record("not refused")
        } catch let error as AccountError {
            guard case .invalidInput(let fields) = error else { throw TestFailure("not field errors: \(error)") }
            #expect(fields["new_password"] != nil && error.missingProof == .secondFactor && error.needsSecondFactor)
        }

        // A login's missing password is a field error of its form, as before.
        var login = FieldErrors()
        login.add(.required, to: "password")
        let problem = Problem.make(.validationFailed, status: 422, language: .en, errors: login)
        #expect(AccountError(status: 422, problem: problem, retryAfter: nil) == .invalidInput(problem.errors ?? [:]))
        #expect(AccountError(status: 422, problem: problem, retryAfter: nil).asStepUpRefusal == .proofRequired(.password))
        var malformed = FieldErrors()
        malformed.add(.invalidFormat, to: "code")
        let wrongShape = AccountError(status: 422, problem: Problem.make(.validationFailed, status: 422, language: .en, errors: malformed), retryAfter: nil)
        #expect(wrongShape.asStepUpRefusal == wrongShape, "a malformed code is not a missing one")
        #expect(String(describing: MissingProof([.passkey, .secondFactor])) == "[passkey, secondFactor]")
    }

    // MARK: The shared form

    @MainActor @Test func theFormAsksWhatTheRequirementSays() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user(totp: true))
        let manager = try await server.signedIn()
        let form = StepUpForm(session: manager, change: .disableSecondFactor, passkeys: StepUpFakeServer.device)
        #expect(form.identity == .password && form.asksPassword && form.asksSecondFactor && form.offersRecoveryCode)
        #expect(!form.offersPasskey, "no passkey known yet")
        #expect(form.instructions == "Enter your password and a code from your authenticator app to confirm it is you.")
        #expect(!form.isComplete)

        // Nothing typed: each field says what it needs, and nothing is sent.
        let before = server.requests.count
        let outcome = await form.submit { _ in Issue.record("sent without a proof") }
        guard case .stopped = outcome else { throw TestFailure("sent: \(outcome)") }
        #expect(form.errors(for: .password) == ["Enter your password."])
        #expect(form.errors(for: .code) == ["Enter the 6-digit code from your authenticator app."])
        #expect(server.requests.count == before)
        form.password = "pw"
        form.useRecoveryCode()
        form.recoveryCode = "abcde-12345"
        #expect(form.isComplete && form.errors(for: .password).isEmpty)
        var sent: AccountProof?
        guard case .changed = await form.submit({ sent = $0 }) else { throw TestFailure("not sent") }
        #expect(sent == AccountProof(.password("pw"), secondFactor: { var entry = SecondFactorEntry(method: .recoveryCode); entry.recoveryCode = "abcde-12345"; return entry }()))
        #expect(form.password.isEmpty && form.recoveryCode.isEmpty, "the fields empty once it ran")
    }

    @MainActor @Test func newRecoveryCodesTakeTheAuthenticatorsCodeAndAPasskeyMayStandForThePassword() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user(totp: true), passkeys: [StepUpFakeServer.passkey])
        let manager = try await server.signedIn()
        let form = StepUpForm(session: manager, change: .replaceRecoveryCodes, passkeys: StepUpFakeServer.device)
        await form.load()
        #expect(form.requirement.holdsPasskey && form.offersPasskey)
        form.useRecoveryCode()
        #expect(form.method == .authenticatorCode && !form.offersRecoveryCode)
        form.usePasskey()
        #expect(form.identity == .passkey && !form.asksPassword && form.asksSecondFactor && form.confirmsInSheet)
        #expect(form.instructions == "Your account has a passkey: confirm it is you with one of your passkeys.")
        form.code = "123 456"
        var sent: AccountProof?
        guard case .changed = await form.submit({ sent = $0 }) else { throw TestFailure("not sent") }
        guard case .passkey = sent?.identity else { throw TestFailure("not a passkey proof: \(String(describing: sent))") }
        #expect(sent?.secondFactor?.wire.code == "123456")
        #expect(server.requests.contains { $0.path == "/auth/passkeys/reauth/options" }, "the passkey's sheet had a challenge of this session")
        #expect(!form.usesPasskey, "back to the account's own once it ran")
    }

    @MainActor @Test func theFormLearnsWhatTheServerAsksAndSaysWhatTheAppCannotGive() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user())
        let manager = try await server.signedIn()
        var passkeyOnly = FieldErrors()
        passkeyOnly.add(.required, to: "passkey_assertion")
        server.refuse("DELETE", "/auth/me", passkeyOnly)

        let deletion = AccountDeletionForm(session: manager)
        deletion.proof.password = "pw"
        await deletion.submit()
        #expect(!deletion.isDeleted && deletion.proof.identity == .passkey && !deletion.proof.asksPassword)
        #expect(deletion.message == "Your account has a passkey, so a change like this needs one of your passkeys rather than the password.")
        // This form was given no passkeys: it says so rather than asking for what it cannot send.
        #expect(!deletion.proof.canProve && !deletion.canSubmit)
        #expect(deletion.proof.instructions == "Your account confirms changes like this with a passkey or Apple, which this app does not offer here.")
        let count = server.requests.count
        await deletion.submit()
        #expect(server.requests.count == count, "nothing sent")

        // With the device's passkeys, the same form proves it and the account is gone.
        let proven = AccountDeletionForm(session: manager, passkeys: StepUpFakeServer.device)
        await proven.proof.load()
        #expect(proven.proof.identity == .password, "the server's list holds none: the password")
        server.refuse("DELETE", "/auth/me", FieldErrors())
        proven.proof.password = "pw"
        await proven.submit()
        #expect(proven.isDeleted && proven.isSignedOut)
    }

    @MainActor @Test func aPasswordChangeKeepsItsOwnFieldsErrors() async throws {
        let server = StepUpFakeServer(user: StepUpFakeServer.user())
        let manager = try await server.signedIn()
        let form = PasswordChangeForm(session: manager)
        form.proof.password = "correct horse battery"
        form.newPassword = "correct horse battery"
        #expect(form.errors(for: .newPassword) == ["The new password is the same as the current one; choose another."] && !form.canSubmit)
        form.newPassword = "another long passphrase 42"
        #expect(form.errors(for: .newPassword).isEmpty && form.canSubmit)
        var weak = FieldErrors()
        weak.add(.tooCommon, to: "new_password")
        server.refuse("POST", "/auth/password/change", weak)
        await form.submit()
        #expect(form.errors(for: .newPassword).count == 1 && form.message == nil, "under the field, not twice")
        #expect(!form.isChanged && form.proof.password == "correct horse battery", "the proof stays typed")
        server.refuse("POST", "/auth/password/change", FieldErrors())
        form.newPassword = "yet another long passphrase 43"
        await form.submit()
        #expect(form.isChanged && form.notice == "Your password is changed. Other devices were signed out.")
        let body = try #require(server.body("POST", "/auth/password/change"))
        #expect(StepUpTests.proofMembers(body) == ["current_password": "correct horse battery"])
    }
}
