import AccountAPI
import Foundation
import InProcess
import Synchronization
import TestSupport
@testable import AccountKit

/// Apple's sheet for these tests: TestSupport's ``AppleStandIn`` signs the identity token, with
/// the hashed nonce the SDK asked with in its `nonce` claim, as Apple does, for the Apple user
/// the person "is" (``person``), on the server's clock.
final class AppleDevice: Sendable {
    let apple: AppleStandIn
    let clock: TestClock
    /// The Apple user signing in: `sub` and the address Apple shares.
    private let person: Mutex<(sub: String, email: String)>
    /// Authorization codes handed out, oldest first.
    private let codes = Mutex<[String]>([])

    init(apple: AppleStandIn, clock: TestClock, email: String? = nil) {
        self.apple = apple
        self.clock = clock
        person = Mutex(AppleDevice.newPerson(email: email))
    }

    /// A new Apple user (`email`, or a private relay address).
    static func newPerson(email: String? = nil) -> (sub: String, email: String) {
        let sub = "001234." + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") + ".0420"
        return (sub, email ?? "\(UUID().uuidString.prefix(10).lowercased())@privaterelay.appleid.com")
    }

    /// The person is now another Apple user.
    func become(email: String? = nil) { person.withLock { $0 = Self.newPerson(email: email) } }

    /// The Apple user's address.
    var email: String { person.withLock { $0.email } }

    /// The sheet: a token for the person with `hashedNonce` as its nonce, and a fresh code.
    var authorizer: AppleSignInAuthorizer {
        AppleSignInAuthorizer { [self] hashedNonce in
            let (sub, email) = person.withLock { $0 }
            var claims = AppleStandIn.claims(sub: sub, email: email, nonce: "", now: clock.now)
            claims.nonce = hashedNonce
            let code = apple.authorizationCode().code
            codes.withLock { $0.append(code) }
            return AppleIDAuthorization(identityToken: apple.identityToken(claims), authorizationCode: code, user: sub, email: email)
        }
    }
}

/// An in-process server with Sign in with Apple against a stand-in for Apple, and passkeys.
struct AppleFixture {
    let server: InProcessServer
    let apple: AppleStandIn
    let folder: TemporaryFolder

    static func start() async throws -> AppleFixture {
        let folder = try TemporaryFolder()
        let apple = try AppleStandIn(folder: folder)
        let server = try await inProcessServer(apple.serverArguments + SoftwarePasskeys.serverOptions)
        return AppleFixture(server: server, apple: apple, folder: folder)
    }

    /// A person with a new Apple ID (`email`, or a private relay address) at this server.
    func device(email: String? = nil) -> AppleDevice { AppleDevice(apple: apple, clock: server.clock, email: email) }

    /// A manager on the server's clock, its session in memory.
    func manager() -> SessionManager {
        SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
    }

    /// A new account made with Apple through the SDK (no password), signed in on `manager`.
    func appleAccount(_ device: AppleDevice, on manager: SessionManager) async throws -> User {
        guard case .profileRequired(let signUp) = try await manager.signInWithApple(using: device.authorizer) else {
            throw TestFailure("Apple's new user was not asked for a profile")
        }
        let tag = UUID().uuidString.prefix(8).lowercased()
        return try await manager.completeAppleSignUp(signUp, username: "apple\(tag)", mbti: .enfp)
    }
}
