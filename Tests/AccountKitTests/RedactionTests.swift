import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// `print`, `String(describing:)`, `String(reflecting:)` and `dump` never show an email address,
/// a password, a code or a token, whatever value of the SDK holds them.
@Suite struct RedactionTests {
    static let email = "secret.person@example.com"
    static let secrets = [email, "the-access-token", "the-refresh-token", "the-password-1", "the-proof-token", "123456", "the-signup-token"]

    static let user = User(
        id: UUID(uuidString: "5F0B7C2E-3D44-4B5A-9C1E-2A6F8D9B0C11")!, username: "민수", email: email, emailVerified: true,
        mbti: .enfp, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    static let pair = TokenPair(access: "the-access-token", refresh: "the-refresh-token", expiresIn: 900, refreshExpiresIn: 3600, user: user)

    /// Every way Swift turns `value` into text.
    static func everyText(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped, String(describing: [value]), String(describing: Optional(value))]
    }

    static func expectNothingSecret(in value: Any, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in everyText(of: value) {
            for secret in secrets {
                #expect(!text.contains(secret), "\(label) shows \(secret): \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func statesUsersAndTokensPrintWithoutSecrets() {
        Self.expectNothingSecret(in: Self.user, "User")
        Self.expectNothingSecret(in: Self.pair, "TokenPair")
        Self.expectNothingSecret(in: SessionManager.State.signedIn(Self.user), "State")
        Self.expectNothingSecret(in: StoredSession(pair: Self.pair, receivedAt: Date()), "StoredSession")
        Self.expectNothingSecret(in: SessionEvent.signedIn(Self.user), "SessionEvent")
        Self.expectNothingSecret(in: RootScreen.profile(Self.user), "RootScreen")
        Self.expectNothingSecret(
            in: EmailVerified(email: Self.email, emailVerificationToken: "the-proof-token", session: Self.pair), "EmailVerified")
        Self.expectNothingSecret(in: AccountClient.SignUpOutcome.signedIn(Self.pair), "SignUpOutcome")
        // What is not secret still shows, so the text stays useful.
        let text = String(describing: Self.user)
        #expect(text.contains("민수") && text.contains("5F0B7C2E") && text.contains("<redacted>"), "\(text)")
    }

    @Test func requestsPrintWithoutPasswordsCodesTokensOrAddresses() {
        Self.expectNothingSecret(
            in: SignUpRequest(
                username: "민수", email: Self.email, password: "the-password-1", passwordConfirmation: "the-password-1", mbti: .enfp,
                emailVerificationToken: "the-proof-token"), "SignUpRequest")
        Self.expectNothingSecret(in: LoginRequest(email: Self.email, password: "the-password-1"), "LoginRequest")
        Self.expectNothingSecret(in: LoginRequest.identifier(Self.email, password: "the-password-1"), "LoginRequest(login:)")
        Self.expectNothingSecret(in: RefreshRequest(refresh: "the-refresh-token"), "RefreshRequest")
        Self.expectNothingSecret(
            in: EmailVerifyRequest(email: Self.email, code: "123456", signIn: true, signUpToken: "the-signup-token"), "EmailVerifyRequest")
        Self.expectNothingSecret(in: EmailCodeRequest(email: Self.email, purpose: .signup), "EmailCodeRequest")
        Self.expectNothingSecret(in: ChangePasswordRequest(currentPassword: "the-password-1", newPassword: "the-password-1"), "ChangePasswordRequest")
        Self.expectNothingSecret(in: PasswordResetConfirmRequest(email: Self.email, code: "123456", newPassword: "the-password-1"), "reset")
        Self.expectNothingSecret(in: DeleteAccountRequest(password: "the-password-1"), "DeleteAccountRequest")
        Self.expectNothingSecret(in: SignUpAccepted(email: Self.email, expiresIn: 600, signUpToken: "the-signup-token"), "SignUpAccepted")
        Self.expectNothingSecret(in: PendingSignUpToken(emailKey: Self.email, token: "the-signup-token"), "PendingSignUpToken")
        Self.expectNothingSecret(in: EmailCodeSent(email: Self.email, expiresIn: 600), "EmailCodeSent")
    }

    @Test func theModelsPhasesAndRoutesPrintWithoutAddressesOrTokens() {
        Self.expectNothingSecret(in: EmailVerificationFlow.Phase.verified(token: "the-proof-token"), "flow phase")
        Self.expectNothingSecret(in: SignUpForm.Phase.codeSent(email: Self.email, expiresIn: 600), "sign-up phase")
        Self.expectNothingSecret(in: AccountRoute.verifiedSignUp(email: Self.email, token: "the-proof-token"), "route")
        Self.expectNothingSecret(in: AccountRoute.emailCode(email: Self.email, purpose: .verify, codeExpiresIn: 600), "route")
        Self.expectNothingSecret(in: NavigationStep.push(.passwordReset(email: Self.email)), "step")
    }

    @Test func theValuesThemselvesKeepEverything() throws {
        // Redaction is only how they print: encoding and the properties are untouched.
        let json = String(decoding: try AccountJSON.makeEncoder().encode(Self.pair), as: UTF8.self)
        #expect(json.contains("the-access-token") && json.contains(Self.email))
        #expect(Self.pair.user.email == Self.email)
    }
}
