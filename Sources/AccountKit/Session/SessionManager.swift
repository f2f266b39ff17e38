import AccountAPI
import Foundation

/// Keeps the signed-in session: stores the token pair, attaches the access token, refreshes it
/// (at most one refresh at a time), and publishes the sign-in state.
///
/// SKELETON: the public surface is fixed; the implementation is being written (see AccountKit
/// issue). Every body below must be replaced before this lands.
public actor SessionManager {
    /// The sign-in state an app's root view follows.
    public enum State: Sendable, Equatable {
        /// Storage not read yet (or unreadable, e.g. a locked Keychain): show neither login nor profile.
        case unknown
        /// No session: show sign-in.
        case signedOut
        /// A session for this user.
        case signedIn(User)
    }

    /// The API client calls go through.
    public nonisolated let client: AccountClient

    /// - Parameters:
    ///   - client: the API client.
    ///   - store: where the session is kept between launches.
    ///   - now: the clock (tests move it).
    ///   - refreshLeeway: refresh when the access token expires within this many seconds.
    public init(client: AccountClient, store: any CredentialStore, now: @escaping @Sendable () -> Date = { Date() }, refreshLeeway: TimeInterval = 60) {
        self.client = client
        fatalError("SessionManager is a skeleton")
    }

    /// The current state.
    public var state: State { fatalError("skeleton") }

    /// The current state first, then every change, for as long as the caller iterates.
    public func stateUpdates() -> AsyncStream<State> { fatalError("skeleton") }

    /// Reads the stored session (once at launch). A storage failure leaves the state `unknown` and throws.
    @discardableResult public func restore() async throws -> State { fatalError("skeleton") }

    /// Logs in, stores the pair, and publishes `signedIn`.
    @discardableResult public func logIn(_ request: LoginRequest) async throws -> User { fatalError("skeleton") }

    /// Starts a session from a pair the caller got (a verified sign-up's 201 reply).
    public func begin(with pair: TokenPair) async throws { fatalError("skeleton") }

    /// A valid access token, refreshing first when it expires within the leeway. Concurrent callers
    /// share one refresh.
    public func accessToken() async throws -> String { fatalError("skeleton") }

    /// Runs `call` with a valid access token; after a 401 for an expired or invalid access token it
    /// refreshes once and retries. A session-ending error signs out (clears storage).
    public func authorized<T: Sendable>(_ call: @Sendable (String) async throws -> T) async throws -> T { fatalError("skeleton") }

    /// `GET /auth/me`, and updates the state's user.
    public func me() async throws -> User { fatalError("skeleton") }

    /// `PATCH /auth/me`, and updates the state's user.
    public func updateProfile(_ request: UpdateProfileRequest) async throws -> User { fatalError("skeleton") }

    /// Logs out on the server (best effort) and clears storage; the state becomes `signedOut`.
    public func logOut(scope: LogoutScope = .local) async { fatalError("skeleton") }
}
