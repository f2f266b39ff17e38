import AccountAPI
import Foundation

/// Keeps the signed-in session: stores the token pair, attaches the access token, refreshes it
/// (at most one refresh at a time), and publishes the sign-in state.
///
/// ```swift
/// let session = SessionManager(client: AccountClient(), store: FileCredentialStore())
/// try await session.restore()
/// try await session.logIn(.identifier("민수", password: "correct horse battery"))
/// let me = try await session.me()
/// for await state in await session.stateUpdates() { … }
/// ```
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

    /// The key the session is stored under in the ``CredentialStore``.
    public static let storageKey = "session"

    /// The API client calls go through.
    public nonisolated let client: AccountClient

    /// The current state.
    public private(set) var state: State = .unknown

    let store: any CredentialStore
    let now: @Sendable () -> Date
    let refreshLeeway: TimeInterval
    /// The session in memory; always what storage holds, except before ``restore()``.
    var session: StoredSession?
    /// The refresh under way, which every caller that needs a new pair awaits.
    var refreshTask: Task<StoredSession, any Error>?
    private var subscribers: [UUID: AsyncStream<State>.Continuation] = [:]

    /// - Parameters:
    ///   - client: the API client.
    ///   - store: where the session is kept between launches.
    ///   - now: the clock (tests move it).
    ///   - refreshLeeway: refresh when the access token expires within this many seconds (at most
    ///     half the token's lifetime).
    public init(client: AccountClient, store: any CredentialStore, now: @escaping @Sendable () -> Date = { Date() }, refreshLeeway: TimeInterval = 60) {
        self.client = client
        self.store = store
        self.now = now
        self.refreshLeeway = refreshLeeway
    }

    deinit {
        for continuation in subscribers.values { continuation.finish() }
    }

    /// The current state first, then every change, for as long as the caller iterates.
    ///
    /// Any number of subscribers may listen; each stream finishes when the manager goes away.
    public func stateUpdates() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let id = UUID()
        continuation.yield(state)
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    /// Sets the state and tells every subscriber, when it changed.
    func publish(_ new: State) {
        guard new != state else { return }
        state = new
        for continuation in subscribers.values { continuation.yield(new) }
    }
}
