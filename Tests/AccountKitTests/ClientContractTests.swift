import AccountAPI
import Foundation
import Testing
@testable import AccountKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every call of ``AccountClient`` sends the method and path of its endpoint in the contract
/// table (``Endpoint``), with a bearer token exactly where the table asks for one.
@Suite struct ClientContractTests {
    /// What a call sent: its method, path and whether it carried a token.
    struct Sent: Sendable, Equatable {
        let method: String
        let path: String
        let bearer: Bool
    }

    /// Records each request and answers it with a `503` problem, so every call ends at once.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [Sent] = []

        var last: Sent? { lock.withLock { requests.last } }

        func record(_ request: URLRequest) -> (Data, URLResponse) {
            let sent = Sent(
                method: request.httpMethod ?? "", path: request.url?.path ?? "",
                bearer: request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true)
            lock.withLock { requests.append(sent) }
            let body = Data(#"{"type":"about:blank","title":"x","status":503,"code":"service_unavailable"}"#.utf8)
            let response = HTTPURLResponse(url: request.url!, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: [:])!
            return (body, response)
        }
    }

    static let token = "access-token"
    static let id = UUID(uuidString: "3F2C0A6E-1B7D-4C2A-9E55-0D3B1F6A7C88")!
    static let proof = StepUpProof(password: "correct horse battery")
    static let assertion = PasskeyAssertionCredential(
        id: "a", rawId: "a", response: .init(clientDataJSON: "e30", authenticatorData: "AA", signature: "AA", userHandle: nil))
    static let registration = PasskeyRegistrationCredential(
        id: "a", rawId: "a", response: .init(clientDataJSON: "e30", attestationObject: "AA", transports: nil))

    /// Each call by the endpoint it must send to.
    static let calls: [(Endpoint, @Sendable (AccountClient) async throws -> Void)] = [
        (.signUp, { _ = try await $0.signUp(SignUpRequest(username: "민수", email: "a@example.com", password: "correct horse battery", mbti: .intj)) }),
        (.requestEmailCode, { _ = try await $0.requestEmailCode(EmailCodeRequest(email: "a@example.com", purpose: .verify)) }),
        (.verifyEmail, { _ = try await $0.verifyEmail(EmailVerifyRequest(email: "a@example.com", code: "123456")) }),
        (.logIn, { _ = try await $0.logIn(.identifier("민수", password: "correct horse battery")) }),
        (.refresh, { _ = try await $0.refresh("refresh-token") }),
        (.logOut, { try await $0.logOut(scope: .others, accessToken: token) }),
        (.getMe, { _ = try await $0.me(accessToken: token) }),
        (.updateMe, { _ = try await $0.updateProfile(UpdateProfileRequest(mbti: .enfp), accessToken: token) }),
        (.deleteMe, { try await $0.deleteAccount(proof, accessToken: token) }),
        (.getPolicy, { _ = try await $0.policy() }),
        (.getKeys, { _ = try await $0.keys() }),
        (.listSessions, { _ = try await $0.sessions(accessToken: token) }),
        (.revokeSession, { try await $0.revokeSession(id: id, accessToken: token) }),
        (.changePassword, { try await $0.changePassword(ChangePasswordRequest(newPassword: "another good password", proof: proof), accessToken: token) }),
        (.requestPasswordReset, { try await $0.requestPasswordReset(PasswordResetRequest(email: "a@example.com")) }),
        (.confirmPasswordReset, { try await $0.confirmPasswordReset(PasswordResetConfirmRequest(email: "a@example.com", code: "123456", newPassword: "another good password")) }),
        (.verifySecondFactor, { _ = try await $0.verifySecondFactor(SecondFactorVerifyRequest(mfaToken: "t", code: "123456")) }),
        (.enrollTOTP, { _ = try await $0.enrollTOTP(proof, accessToken: token) }),
        (.confirmTOTP, { _ = try await $0.confirmTOTP(TOTPConfirmRequest(code: "123456"), accessToken: token) }),
        (.replaceRecoveryCodes, { _ = try await $0.replaceRecoveryCodes(proof, accessToken: token) }),
        (.disableTOTP, { try await $0.disableTOTP(proof, accessToken: token) }),
        (.passkeyRegistrationOptions, { _ = try await $0.passkeyRegistrationOptions(accessToken: token) }),
        (.registerPasskey, { _ = try await $0.registerPasskey(PasskeyRegisterRequest(name: "phone", credential: registration, proof: proof), accessToken: token) }),
        (.passkeyLoginOptions, { _ = try await $0.passkeyLoginOptions() }),
        (.logInWithPasskey, { _ = try await $0.logInWithPasskey(PasskeyLoginRequest(credential: assertion)) }),
        (.passkeyReauthenticationOptions, { _ = try await $0.passkeyReauthenticationOptions(accessToken: token) }),
        (.listPasskeys, { _ = try await $0.passkeys(accessToken: token) }),
        (.deletePasskey, { try await $0.deletePasskey(id: id, proof, accessToken: token) }),
        (.listSecurityEvents, { _ = try await $0.securityEvents(limit: 5, accessToken: token) }),
        (.signInWithApple, { _ = try await $0.signInWithApple(AppleSignInRequest(identityToken: "t", nonce: "n")) }),
        (.completeAppleSignUp, { _ = try await $0.completeAppleSignUp(AppleCompleteRequest(continuationToken: "c", username: "민수", mbti: "INTJ")) }),
        (.linkApple, { _ = try await $0.linkApple(AppleLinkRequest(identityToken: "t", nonce: "n", proof: proof), accessToken: token) }),
        (.unlinkApple, { try await $0.unlinkApple(proof, accessToken: token) }),
    ]

    @Test("each call sends its endpoint's method and path, with a token exactly where the table asks one")
    func callsFollowTheTable() async throws {
        let recorder = Recorder()
        let client = AccountClient(
            baseURL: URL(string: "https://accounts.example.com")!, language: .en, userAgent: "tests",
            transport: { request in recorder.record(request) })
        for (endpoint, call) in Self.calls {
            await #expect(throws: AccountError.self) { try await call(client) }
            let sent = try #require(recorder.last, "\(endpoint.route): nothing sent")
            #expect(sent.method == endpoint.method.rawValue, "\(endpoint.operationId)")
            #expect(sent.path == endpoint.path(id: Self.id.uuidString.lowercased()), "\(endpoint.operationId): \(sent.path)")
            #expect(sent.bearer == (endpoint.auth != .none), "\(endpoint.operationId): token \(sent.bearer)")
        }
    }

    @Test("every endpoint of the table under /auth/ that an app calls has a call here")
    func everyAppEndpointIsCalled() {
        let called = Set(Self.calls.map(\.0.operationId))
        let app = Endpoint.all.filter { $0.path.hasPrefix("/auth/") || $0.path == "/.well-known/jwks.json" }
        for endpoint in app where !called.contains(endpoint.operationId) {
            Issue.record("\(endpoint.route) (\(endpoint.operationId)) has no AccountClient call checked here")
        }
    }
}
