import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountCore

/// The operations called as the core's own API, with no HTTP at all: the environment a test
/// builds (``TestEnvironment``), a caller standing for the request, and the outcome each returns.
@Suite("The core without HTTP")
struct CoreOperationsTests {
    static let password = "Core-Without-HTTP-7"

    /// Signs up through the code mailed to `email`, and returns the session of the verification.
    static func signedUp(_ environment: TestEnvironment, _ name: String, _ email: String) async throws -> TokenPair {
        let request = SignUpOperations.Request(username: name, email: email, password: password, mbti: .infp)
        guard case .pending(let token) = try await environment.services.signUpOperations.signUp(request, by: environment.caller()) else {
            throw TestFailure("a sign-up without a proof of its address is pending until its code")
        }
        let code = try await environment.mail.code(to: email)
        let verification = EmailVerificationOperations.Request(email: email, code: code, signUpToken: token, signIn: true)
        guard case .verifiedAndSignedIn(_, let session) = try await environment.services.emailVerificationOperations.verify(verification, by: environment.caller())
        else { throw TestFailure("the sign-up's code signs its new account in") }
        return session
    }

    @Test("sign-up, verification, login, refresh and a refusal, as outcomes")
    func theFlowAsOutcomes() async throws {
        let environment = try await TestEnvironment.start()
        let first = try await Self.signedUp(environment, "corewalker", "core.walker@example.com")
        #expect(!first.access.isEmpty && first.access != first.refresh)

        environment.clock.advance(5)
        let login = try await environment.services.loginOperations.logIn(
            "core.walker@example.com", byEmail: true, password: Self.password, caller: environment.caller())
        guard case .signedIn(let pair) = login else {
            Issue.record("an account without a second factor is signed in by its password: \(login)")
            return
        }
        let refreshed = try await environment.services.refreshOperations.refresh(pair.refresh, caller: environment.caller())
        #expect(refreshed.refresh != pair.refresh)

        let wrong = await #expect(throws: APIError.self) {
            _ = try await environment.services.loginOperations.logIn(
                "corewalker", byEmail: false, password: "Not-The-Password-1", caller: environment.caller())
        }
        #expect(wrong?.code == .invalidCredentials)
        // The used refresh token, outside the grace of a repeat, is taken as stolen: its session ends.
        let reused = await #expect(throws: APIError.self) {
            _ = try await environment.services.refreshOperations.refresh(pair.refresh, caller: environment.caller().later(by: 3600))
        }
        #expect(reused?.code == .refreshTokenReused)
        let afterTheft = await #expect(throws: APIError.self) {
            _ = try await environment.services.refreshOperations.refresh(refreshed.refresh, caller: environment.caller().later(by: 3601))
        }
        #expect(afterTheft?.code == .sessionRevoked)
    }

    @Test("every secret, code, token and id comes from the environment's randomness")
    func randomnessIsTheEnvironments() async throws {
        /// What one walk drew: the code mailed, the new account's id and its first refresh token.
        func walk(seed: UInt64) async throws -> (code: String, userID: String, refresh: String) {
            let environment = try await TestEnvironment.start(random: .seeded(seed))
            let session = try await Self.signedUp(environment, "seeded", "seeded@example.com")
            let code = try await environment.mail.code(to: "seeded@example.com")
            guard let user = try await environment.services.store.read({ try $0.user(emailKey: "seeded@example.com") }) else {
                throw TestFailure("the walk made its account")
            }
            return (code, user.id.uuidString, session.refresh)
        }
        let (first, again, other) = (try await walk(seed: 41), try await walk(seed: 41), try await walk(seed: 42))
        #expect(first == again, "the same seed draws the same code, id and token")
        #expect(first.code != other.code && first.userID != other.userID && first.refresh != other.refresh)
    }
}

extension Caller {
    /// The same caller `seconds` later.
    func later(by seconds: TimeInterval) -> Caller {
        Caller(requestID: requestID, clientAddress: clientAddress, userAgent: userAgent, language: language, now: now.addingTimeInterval(seconds))
    }
}
