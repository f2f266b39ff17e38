import AccountAPI
import Foundation

extension SessionManager {
    /// A valid access token, refreshing first when it expires within the leeway. Concurrent callers
    /// share one refresh.
    /// - Throws: ``AccountError/notSignedIn`` without a session; a refresh's failure.
    public func accessToken() async throws -> String {
        try await currentSession().access
    }

    /// Refreshes the session now, whatever its access token's age (after the app learns that the
    /// account changed elsewhere, say), and returns the user as the server sees it. Concurrent
    /// callers, and the SDK's own refreshes, share one request. When another process sharing the
    /// store (an app extension) stored a newer pair meanwhile, that pair is taken up instead: its
    /// access token if still valid, else a refresh with its refresh token.
    /// - Throws: ``AccountError/notSignedIn`` without a session; a refresh's failure (a
    ///   session-ending one signs out, like any call).
    @discardableResult public func refresh() async throws -> User {
        if state == .unknown { try await restore() }
        guard let current = session else { throw AccountError.notSignedIn }
        return try await refreshed(from: current).user
    }

    /// Runs `call` with a valid access token; after a 401 for an expired or invalid access token it
    /// refreshes once and retries. A session-ending error signs out (clears storage).
    ///
    /// ```swift
    /// let sessions = try await manager.authorized { try await client.sessions(accessToken: $0) }
    /// ```
    public func authorized<T: Sendable>(_ call: @Sendable (String) async throws -> T) async throws -> T {
        let used = try await currentSession()
        do {
            return try await call(used.access)
        } catch let error as AccountError where error == .sessionExpired || error == .sessionRevoked(.tokenInvalid) {
            let fresh = try await refreshed(from: used)
            do {
                return try await call(fresh.access)
            } catch let error as AccountError where error.endsSession {
                end(fresh, because: error)
                throw error
            }
        } catch let error as AccountError where error.endsSession {
            end(used, because: error)
            throw error
        }
    }

    /// The session to use now: restored if need be, refreshed when its access token is about to expire.
    func currentSession() async throws -> StoredSession {
        if state == .unknown { try await restore() }
        guard let current = session else { throw AccountError.notSignedIn }
        if current.isOver(at: now()) {
            end(current, because: .sessionExpired)
            throw AccountError.sessionExpired
        }
        if current.needsRefresh(at: now(), leeway: refreshLeeway) {
            // A read-only manager uses its token to the end when the app has stored no newer one.
            if store.isReadOnly, current.accessExpiresAt > now() { return (try? await refreshed(from: current)) ?? current }
            return try await refreshed(from: current)
        }
        return current
    }

    /// A session newer than `stale`: the one a concurrent refresh brings, one that already
    /// replaced `stale`, or a new refresh.
    func refreshed(from stale: StoredSession) async throws -> StoredSession {
        if let running = refreshTask { return try await running.value }
        guard let current = session else { throw AccountError.notSignedIn }
        if !current.isSamePair(as: stale) { return current }
        // The task cannot start before this line's caller suspends (it needs the actor), so
        // `refreshTask` is set before `rotate` clears it.
        let task = Task { try await self.rotate(current) }
        refreshTask = task
        return try await task.value
    }

    /// Trades `stale`'s refresh token for a new pair and stores the pair before handing it out,
    /// holding the store's ``CredentialStore/sharedLock`` (when it has one) from reading the store
    /// again to writing the new pair, so another process sharing the store waits and then takes
    /// up this pair instead of trading the same token.
    private func rotate(_ stale: StoredSession) async throws -> StoredSession {
        defer { refreshTask = nil }
        if store.isReadOnly { return try takeUpStored(replacing: stale) }
        guard let lock = store.sharedLock else { return try await rotateUnderLock(stale) }
        do {
            return try await lock.withLock { try await self.rotateUnderLock(stale) }
        } catch let error as CredentialStoreError {
            throw AccountError.storage(error)
        }
    }

    private func rotateUnderLock(_ stale: StoredSession) async throws -> StoredSession {
        // Another process sharing the store (an app extension) may have refreshed since this one
        // read it: its pair is the live one, and `stale`'s refresh token is spent.
        var base = stale
        if let stored = storedByAnother(than: stale), session?.isSamePair(as: stale) == true {
            if !stored.needsRefresh(at: now(), leeway: refreshLeeway) {
                take(stored, replacing: stale)
                return stored
            }
            base = stored
        }
        let pair: TokenPair
        do {
            pair = try await client.refresh(refreshToken(of: base))
        } catch let error as AccountError where error.endsSession {
            end(stale, because: error)
            throw error
        }
        // Only a definitive refusal (above) signs out. Every other failure (no network, a
        // timeout, a cancelled request, 5xx, rate limits, a reply that cannot be read, a
        // cancelled Face ID prompt) keeps the old pair: a retry within the server's grace window
        // gets this same new pair, so a lost reply does not sign out.
        guard let current = session, current.isSamePair(as: stale) else {
            // Signed out, or a new login replaced the session, while the refresh was out.
            if let current = session { return current }
            throw AccountError.notSignedIn
        }
        let fresh = StoredSession(pair: pair, receivedAt: now())
        // On failure memory keeps the pair storage still holds; a retry lands in the grace window.
        try save(fresh)
        let kept = keptInMemory(fresh)
        take(kept, replacing: stale)
        return kept
    }

    /// A read-only manager's refresh: the pair the app stored since `stale`, while its access
    /// token is valid. It never trades a refresh token itself.
    /// - Throws: ``AccountError/storage(_:)`` with ``CredentialStoreError/readOnly`` when the
    ///   store holds nothing newer that is still valid: the app must refresh.
    private func takeUpStored(replacing stale: StoredSession) throws -> StoredSession {
        guard let stored = storedByAnother(than: stale), stored.accessExpiresAt > now() else {
            throw AccountError.storage(.readOnly)
        }
        let kept = keptInMemory(stored)
        take(kept, replacing: stale)
        return kept
    }

    /// The session in the store when it is not `stale` (and still usable): a pair another
    /// process stored. `nil` when the store holds `stale`, nothing, or cannot be read now (then
    /// the refresh goes on with `stale`, as without a shared store).
    private func storedByAnother(than stale: StoredSession) -> StoredSession? {
        guard let data = try? store.retrieve(key: credentialKey),
              let stored = try? StoredSession.decoder.decode(StoredSession.self, from: data),
              !stored.isSamePair(as: stale), !stored.isOver(at: now())
        else { return nil }
        return stored
    }

    /// Makes `fresh` the session in memory in place of `stale` and tells subscribers.
    private func take(_ fresh: StoredSession, replacing stale: StoredSession) {
        session = fresh
        publish(.signedIn(fresh.user))
        announce(.tokenRefreshed)
        if fresh.user != stale.user { announce(.userUpdated(fresh.user)) }
    }
}
