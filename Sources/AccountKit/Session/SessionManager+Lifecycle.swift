import AccountAPI
import Foundation

extension SessionManager {
    /// Reads the stored session (once at launch). A storage failure leaves the state `unknown` and throws.
    ///
    /// Only ``CredentialStoreError/locked`` is worth waiting for (read again when the app becomes
    /// active); any other storage failure is for the app to show, with a way to try again.
    ///
    /// Once the state is known, memory is the truth and this only returns it. A stored session
    /// whose refresh token has run out, or that cannot be decoded, counts as signed out.
    /// - Throws: ``AccountError/storage(_:)`` when the store cannot be read now (a locked device).
    @discardableResult public func restore() async throws -> State {
        guard state == .unknown else { return state }
        let data: Data?
        do {
            data = try store.retrieve(key: Self.storageKey)
        } catch {
            throw AccountError.storage(Self.storageError(error))
        }
        guard let data else {
            publish(.signedOut)
            return state
        }
        guard let stored = try? StoredSession.decoder.decode(StoredSession.self, from: data), !stored.isOver(at: now()) else {
            clearLocally()
            return state
        }
        session = stored
        publish(.signedIn(stored.user))
        return state
    }

    /// Logs in, stores the pair, and publishes `signedIn`.
    /// - Throws: the server's refusal as ``AccountError``, or ``AccountError/storage(_:)`` when the
    ///   pair cannot be stored (then the state does not change).
    @discardableResult public func logIn(_ request: LoginRequest) async throws -> User {
        let pair = try await client.logIn(request)
        try await adopt(pair)
        return pair.user
    }

    /// Starts a session from a pair the caller got (a verified sign-up's 201 reply).
    /// - Throws: ``AccountError/storage(_:)`` when the pair cannot be stored.
    public func begin(with pair: TokenPair) async throws {
        try await adopt(pair)
    }

    /// Logs out on the server (best effort) and clears storage; the state becomes `signedOut`.
    ///
    /// With `.others` this device stays signed in and only the account's other sessions end.
    public func logOut(scope: LogoutScope = .local) async {
        let client = client
        if scope == .others {
            _ = try? await authorized { try await client.logOut(scope: .others, accessToken: $0) }
            return
        }
        if session != nil || state == .unknown {
            _ = try? await authorized { try await client.logOut(scope: scope, accessToken: $0) }
        }
        clearLocally()
    }

    /// Stores a new session and publishes it; a pair that cannot be stored is closed on the server.
    private func adopt(_ pair: TokenPair) async throws {
        let fresh = StoredSession(pair: pair, receivedAt: now())
        do {
            try save(fresh)
        } catch {
            // A session this device cannot keep would stay live on the server until it expires.
            try? await client.logOut(scope: .local, accessToken: pair.access)
            throw error
        }
        session = fresh
        publish(.signedIn(fresh.user))
    }

    /// Writes `session` to the store.
    /// - Throws: ``AccountError/storage(_:)``.
    func save(_ session: StoredSession) throws {
        do {
            try store.store(key: Self.storageKey, value: StoredSession.encoder.encode(session))
        } catch {
            throw AccountError.storage(Self.storageError(error))
        }
    }

    /// Ends `ended` on this device, unless a newer session has replaced it meanwhile.
    func end(_ ended: StoredSession) {
        guard session?.refresh == ended.refresh else { return }
        clearLocally()
    }

    /// Forgets the session: storage first, then memory, then tells subscribers.
    func clearLocally() {
        // A store that cannot remove now (locked) keeps a dead pair; the server refuses it later.
        try? store.remove(key: Self.storageKey)
        session = nil
        refreshTask = nil
        publish(.signedOut)
    }

    /// The store's failure as the SDK reports it.
    static func storageError(_ error: any Error) -> CredentialStoreError {
        switch error {
        case let error as CredentialStoreError: error
        case AccountError.storage(let error): error
        default: .failed(String(describing: error))
        }
    }
}
