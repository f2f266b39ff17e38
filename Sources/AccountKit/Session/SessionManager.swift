import AccountAPI
import Foundation

/// Keeps the signed-in session: stores the token pair, attaches the access token, refreshes it
/// (at most one refresh at a time), and publishes the sign-in state and what happens to it.
///
/// ```swift
/// let client = AccountClient(baseURL: URL(string: "https://accounts.example.com")!)
/// let session = SessionManager(client: client, store: .platformDefault(appID: "com.example.mbti"))
/// let events = Task { for await event in await session.events() { print(event) } }   // runs beside the rest
/// try await session.restore()
/// try await session.logIn(.identifier("민수", password: "correct horse battery"))
/// let me = try await session.me()           // refreshes first when the token is about to expire
/// print(session.currentUser?.username ?? "-")   // synchronous, from any thread
/// try await session.logOut()
/// ```
public actor SessionManager {
    /// The sign-in state an app's root view follows.
    ///
    /// Prints without the user's email address (see ``AccountAPI/User``).
    public enum State: Sendable, Hashable {
        /// Storage not read yet (or unreadable, e.g. a locked Keychain): show neither login nor profile.
        case unknown
        /// No session: show sign-in.
        case signedOut
        /// A session for this user.
        case signedIn(User)
        /// No session yet: the password was right and the login waits for the second factor
        /// (``SessionManager/verifySecondFactor(code:)`` or
        /// ``SessionManager/verifySecondFactor(recoveryCode:)``); show the code step. Not stored:
        /// a relaunch starts at sign-in again.
        case awaitingSecondFactor(SecondFactorChallenge)

        /// The signed-in user, if any.
        public var user: User? {
            if case .signedIn(let user) = self { return user }
            return nil
        }

        /// The login waiting for its second factor, if that is the state.
        public var challenge: SecondFactorChallenge? {
            if case .awaitingSecondFactor(let challenge) = self { return challenge }
            return nil
        }
    }

    /// The API client calls go through.
    public nonisolated let client: AccountClient
    /// Separates this manager's session from others in the same store: managers with different
    /// namespaces never see each other's session. The server's address by default
    /// (`https://accounts.example.com`), so a staging and a production manager in one app do not
    /// collide; give one per account to keep several signed in at once.
    public nonisolated let namespace: String
    /// The session's name inside the namespace (`session` by default).
    public nonisolated let storageKey: String
    /// The key the session is stored under in the ``CredentialStore``: `namespace/storageKey`.
    public nonisolated var credentialKey: String { "\(namespace)/\(storageKey)" }

    /// The current state.
    public private(set) var state: State = .unknown

    nonisolated let store: any CredentialStore
    let now: @Sendable () -> Date
    let refreshLeeway: TimeInterval
    /// The session in memory; always what storage holds, except before ``restore()``.
    var session: StoredSession? {
        didSet {
            snapshot.update {
                $0.accessExpiresAt = session?.accessExpiresAt
                $0.refreshExpiresAt = session?.refreshExpiresAt
            }
        }
    }
    /// The login waiting for its second factor, if any (also in ``state`` while no session is kept).
    public internal(set) var secondFactorChallenge: SecondFactorChallenge?
    /// The refresh under way, which every caller that needs a new pair awaits.
    var refreshTask: Task<StoredSession, any Error>?
    /// The token of the details-first sign-up this manager made last, until its code is verified
    /// (also in the store, ``pendingSignUpKey``); read from the store when `nil`.
    var pendingSignUp: PendingSignUpToken?
    let snapshot = SessionSnapshot()
    private var stateSubscribers: [UUID: AsyncStream<State>.Continuation] = [:]
    private var eventSubscribers: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]

    /// - Parameters:
    ///   - client: the API client.
    ///   - store: where the session is kept between launches
    ///     (`.platformDefault(appID:)` for most apps).
    ///   - namespace: separates this session from others in `store`; the server's address
    ///     (``defaultNamespace(for:)``) by default.
    ///   - storageKey: the session's name inside the namespace.
    ///   - now: the clock (tests move it).
    ///   - refreshLeeway: refresh when the access token expires within this many seconds (at most
    ///     half the token's lifetime).
    public init(
        client: AccountClient, store: any CredentialStore, namespace: String? = nil, storageKey: String = "session",
        now: @escaping @Sendable () -> Date = { Date() }, refreshLeeway: TimeInterval = 60
    ) {
        self.client = client
        self.store = store
        self.namespace = namespace ?? Self.defaultNamespace(for: client.baseURL)
        self.storageKey = storageKey
        self.now = now
        self.refreshLeeway = refreshLeeway
    }

    deinit {
        for continuation in stateSubscribers.values { continuation.finish() }
        for continuation in eventSubscribers.values { continuation.finish() }
    }

    /// The namespace of a server: its scheme, host and port, and path if any
    /// (`https://accounts.example.com`, `http://127.0.0.1:8000`), in lower case, without a final `/`.
    public static func defaultNamespace(for baseURL: URL) -> String {
        let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
        let scheme = components?.scheme?.lowercased() ?? "http"
        let host = components?.host?.lowercased() ?? ""
        let port = components?.port.map { ":\($0)" } ?? ""
        var path = components?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://\(host)\(port)\(path)"
    }

    // MARK: Reading without waiting

    /// The state now, read from any thread without awaiting the actor (a view's first frame).
    public nonisolated var currentState: State { snapshot.current.state }

    /// The signed-in user as last seen, without awaiting the actor; `nil` when signed out or before
    /// ``restore()``.
    public nonisolated var currentUser: User? { snapshot.current.state.user }

    /// When the access token expires, by this device's clock; `nil` without a session. The SDK
    /// refreshes it by itself before then (``refresh()`` forces it).
    ///
    /// Counted from the reply's `expires_in` when it arrived, never from the token's `exp` (the
    /// server's clock), so a device clock that is off by hours does not matter.
    public nonisolated var accessTokenExpiresAt: Date? { snapshot.current.accessExpiresAt }

    /// When the session ends if it is not used, by this device's clock: its refresh token's
    /// lifetime, moved on by every refresh; `nil` without a session. The server may end it
    /// earlier (its absolute lifetime, a logout elsewhere).
    public nonisolated var sessionExpiresAt: Date? { snapshot.current.refreshExpiresAt }

    // MARK: Streams

    /// The current state first, then every change, for as long as the caller iterates.
    ///
    /// Any number of subscribers may listen; each stream finishes when the manager goes away.
    /// Iterate it in its own `Task`: the loop lasts as long as the manager.
    public func stateUpdates() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let id = UUID()
        continuation.yield(state)
        stateSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// Everything that happens to the session from now on: signed in, signed out and why, token
    /// refreshed, user updated (``SessionEvent``). Unlike ``stateUpdates()`` it starts with nothing.
    ///
    /// Any number of subscribers may listen; each stream finishes when the manager goes away.
    /// Iterate it in its own `Task`: the loop lasts as long as the manager.
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
        let id = UUID()
        eventSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) {
        stateSubscribers[id] = nil
        eventSubscribers[id] = nil
    }

    /// Sets the state and tells every subscriber, when it changed.
    func publish(_ new: State) {
        guard new != state else { return }
        state = new
        snapshot.update { $0.state = new }
        for continuation in stateSubscribers.values { continuation.yield(new) }
    }

    /// Tells every event subscriber.
    func announce(_ event: SessionEvent) {
        for continuation in eventSubscribers.values { continuation.yield(event) }
    }
}
