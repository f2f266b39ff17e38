import AccountAPI
import Foundation

extension SessionManager {
    /// Reads the stored session (once at launch). A storage failure leaves the state `unknown` and throws.
    ///
    /// Only ``CredentialStoreError/locked`` is worth waiting for (read again when the app becomes
    /// active); any other storage failure is for the app to show, with a way to try again.
    ///
    /// Once the state is known, memory is the truth and this only returns it. A stored session
    /// whose refresh token has run out counts as signed out (``SessionEvent/signedOut(_:)`` with
    /// ``SignOutReason/expired``); one that cannot be decoded, too.
    /// - Throws: ``AccountError/storage(_:)`` when the store cannot be read now (a locked device).
    @discardableResult public func restore() async throws -> State {
        guard state == .unknown else { return state }
        let data: Data?
        do {
            data = try store.retrieve(key: credentialKey)
        } catch {
            throw AccountError.storage(Self.storageError(error))
        }
        guard let data else {
            publish(.signedOut)
            return state
        }
        guard let stored = try? StoredSession.decoder.decode(StoredSession.self, from: data) else {
            clearLocally(nil)
            return state
        }
        // Without its refresh token the record is usable only where that is kept apart, or by a
        // read-only manager, which never refreshes. Elsewhere it is left to the process that
        // keeps the token apart.
        guard !stored.refresh.isEmpty || store.refreshTokenStore != nil || store.isReadOnly else {
            publish(.signedOut)
            return state
        }
        guard !stored.isOver(at: now()) else {
            session = stored
            clearLocally(.expired)
            return state
        }
        session = keptInMemory(stored)
        if store.refreshTokenStore != nil, !stored.refresh.isEmpty, !store.isReadOnly {
            // Protection was turned on since the record was written: the token moves apart now.
            try? save(stored)
        }
        publish(.signedIn(stored.user))
        return state
    }

    /// Logs in, stores the pair, and publishes `signedIn`. A session held already is replaced
    /// and ended on the server (see ``SignOutReason/replacedBySignIn``).
    /// - Throws: the server's refusal as ``AccountError``, or ``AccountError/storage(_:)`` when the
    ///   pair cannot be stored (then the state does not change).
    ///
    /// For an account with a second factor, a right password throws
    /// ``AccountError/secondFactorRequired(_:)``: the manager keeps the challenge
    /// (``secondFactorChallenge``; the state is ``State/awaitingSecondFactor(_:)`` unless a
    /// session is kept already) and ``verifySecondFactor(code:)`` or
    /// ``verifySecondFactor(recoveryCode:)`` finishes the login.
    @discardableResult public func logIn(_ request: LoginRequest) async throws -> User {
        let pair: TokenPair
        do {
            pair = try await client.logIn(request)
        } catch AccountError.secondFactorRequired(let challenge) {
            throw AccountError.secondFactorRequired(awaitSecondFactor(challenge))
        }
        try await adopt(pair)
        return pair.user
    }

    /// Signs up. Details first (no token): a code is mailed, ``AccountClient/SignUpOutcome/codeSent(_:)``
    /// says where and for how long, and ``verifyEmail(_:code:signUpToken:)`` finishes (and signs
    /// in); the reply's ``SignUpAccepted/signUpToken`` is kept for it, in the store beside the
    /// session (``pendingSignUpKey``), so a relaunch in between loses nothing. Email first (with the
    /// token of a proven address): the account is made verified and this session begins with it,
    /// ``AccountClient/SignUpOutcome/signedIn(_:)``.
    /// - Throws: the server's refusal as ``AccountError``, or ``AccountError/storage(_:)`` when a
    ///   new session cannot be stored (the server's session is closed again then).
    @discardableResult public func signUp(_ request: SignUpRequest) async throws -> AccountClient.SignUpOutcome {
        let outcome = try await client.signUp(request)
        switch outcome {
        case .signedIn(let pair): try await adopt(pair)
        case .codeSent(let accepted): keepSignUpToken(accepted)
        }
        return outcome
    }

    /// Verifies `email` with the mailed `code`. When this manager made the address's details-first
    /// sign-up (``signUp(_:)`` kept its token), or `signUpToken` is given, it asks to be signed in
    /// with that token: when the code completes that sign-up within the server's window (30
    /// minutes by default), the new account's session begins here, so the app needs no password
    /// after sign-up. Otherwise (too late, a sign-up made elsewhere, a code for an account from
    /// before, an email-first code) the reply has no ``EmailVerified/session`` and the state does
    /// not change: log in then.
    /// - Parameters:
    ///   - signUpToken: the ``SignUpAccepted/signUpToken`` of a sign-up sent with ``client``
    ///     rather than through this manager; `nil` uses the one this manager kept.
    /// - Throws: the server's refusal (``AccountError/codeRejected(_:)``…);
    ///   ``AccountError/conflict(_:)`` with ``ErrorCode/signUpSuperseded`` when a newer sign-up of
    ///   the address (maybe someone else's, with their password) replaced this device's: nothing
    ///   was made and the code is spent, so sign up again; or ``AccountError/storage(_:)`` when the
    ///   new session cannot be stored.
    @discardableResult public func verifyEmail(_ email: String, code: String, signUpToken: String? = nil) async throws -> EmailVerified {
        let token = signUpToken ?? keptSignUpToken(for: email)
        let verified: EmailVerified
        do {
            verified = try await client.verifyEmail(EmailVerifyRequest(email: email, code: code, signIn: token != nil, signUpToken: token))
        } catch AccountError.conflict(let code) where code == .signUpSuperseded {
            forgetSignUpToken(for: email)
            throw AccountError.conflict(code)
        }
        forgetSignUpToken(for: email)
        if let pair = verified.session { try await adopt(pair) }
        return verified
    }

    /// Starts a session from a pair got from ``client`` directly (a verified sign-up's 201 reply,
    /// a verification's `session`); ``signUp(_:)`` and ``verifyEmail(_:code:signUpToken:)`` do this by themselves.
    /// - Throws: ``AccountError/storage(_:)`` when the pair cannot be stored.
    public func begin(with pair: TokenPair) async throws {
        try await adopt(pair)
    }

    /// Logs out: ends this session on the server (with `everywhere`, every session of the
    /// account), then forgets it here. The local sign-out happens whatever the server says; the
    /// state becomes `signedOut` with ``SignOutReason/loggedOut``.
    ///
    /// The access token in hand is used as it is, even when it is about to expire: a refresh only
    /// to revoke would be wasted. Only a token expired by the device clock, or one the server
    /// calls expired, is refreshed first, since the server needs a live one to know the session.
    /// To end the account's other sessions and stay signed in here, use ``endOtherSessions()``.
    ///
    /// - Throws: after the local sign-out, why the server could not be told (``AccountError/transport(_:)``,
    ///   ``AccountError/server(status:problem:)``…): the session may live on there until it expires
    ///   or is ended from another device. A session the server had ended already is no failure.
    public func logOut(everywhere: Bool = false) async throws {
        if state == .unknown { _ = try? await restore() }
        var failure: (any Error)?
        if let current = session {
            do {
                try await revoke(current, scope: everywhere ? .global : .local)
            } catch let error as AccountError where error.endsSession {
                // Ended on the server already: what logging out wanted.
            } catch {
                failure = error
            }
        }
        clearLocally(.loggedOut)
        if let failure { throw failure }
    }

    /// Ends `current` on the server with its access token as it is; refreshes only an expired one.
    private func revoke(_ current: StoredSession, scope: LogoutScope) async throws {
        var live = current
        if current.accessExpiresAt <= now() { live = try await refreshed(from: current) }
        do {
            try await client.logOut(scope: scope, accessToken: live.access)
        } catch let error as AccountError where error == .sessionExpired || error == .sessionRevoked(.tokenInvalid) {
            // The server's clock says the token ran out (the device's is behind), or a signing key
            // changed under it: once more, fresh. A session that is gone fails the refresh too.
            try await client.logOut(scope: scope, accessToken: try await refreshed(from: live).access)
        }
    }

    /// Stores a new session and publishes it; a pair that cannot be stored is closed on the server.
    ///
    /// A session held before (in memory, or in the store before ``restore()``) is replaced: the
    /// app hears ``SessionEvent/signedOut(_:)`` with ``SignOutReason/replacedBySignIn`` before
    /// ``SessionEvent/signedIn(_:)``, and the old session is ended on the server, so it does not
    /// live on there unseen. The state goes from one user to the other without `signedOut`.
    func adopt(_ pair: TokenPair) async throws {
        let fresh = StoredSession(pair: pair, receivedAt: now())
        let replaced = session ?? (state == .unknown ? readStored() : nil)
        do {
            try save(fresh)
        } catch {
            // A session this device cannot keep would stay live on the server until it expires.
            try? await client.logOut(scope: .local, accessToken: pair.access)
            throw error
        }
        let heldBefore = session.map { !$0.isSamePair(as: fresh) } ?? false
        session = keptInMemory(fresh)
        refreshTask = nil
        secondFactorChallenge = nil
        if heldBefore { announce(.signedOut(.replacedBySignIn)) }
        publish(.signedIn(fresh.user))
        announce(.signedIn(fresh.user))
        if let replaced, !replaced.isSamePair(as: fresh) { await endOnServer(replaced) }
    }

    /// Ends `old`, a session this manager no longer keeps, on the server: with its access token
    /// while the device clock says it is valid, else (or when the server calls it expired) with
    /// the access token of one refresh. Best effort: when the server cannot be told, the session
    /// ends there by its own expiry.
    private func endOnServer(_ old: StoredSession) async {
        guard !old.isOver(at: now()) else { return }
        if old.accessExpiresAt > now() {
            do {
                return try await client.logOut(scope: .local, accessToken: old.access)
            } catch let error as AccountError where error == .sessionExpired || error == .sessionRevoked(.tokenInvalid) {
                // Expired by the server's clock, or a key rotated under it: refresh once below.
            } catch {
                return
            }
        }
        // A refresh token kept apart is not read for this: it would ask for the person's presence.
        guard !old.refresh.isEmpty, let live = try? await client.refresh(old.refresh) else { return }
        try? await client.logOut(scope: .local, accessToken: live.access)
    }

    /// The stored session, when there is one this manager can read now.
    func readStored() -> StoredSession? {
        guard let data = try? store.retrieve(key: credentialKey) else { return nil }
        return try? StoredSession.decoder.decode(StoredSession.self, from: data)
    }

    /// `session` as memory holds it: without its refresh token when the store keeps that apart,
    /// so that every refresh reads it there (and asks for the person's presence).
    func keptInMemory(_ session: StoredSession) -> StoredSession {
        store.refreshTokenStore == nil ? session : session.replacingRefresh(with: "")
    }

    /// The key of the refresh token kept apart (``CredentialStore/refreshTokenStore``).
    var refreshTokenKey: String { credentialKey + "#refresh" }

    /// The refresh token of `session`: its own, or the one kept apart (which asks for the
    /// person's presence).
    /// - Throws: ``AccountError/storage(_:)`` (``CredentialStoreError/accessDenied`` when the
    ///   person cancelled); ``AccountError/notSignedIn`` when the token is gone.
    func refreshToken(of session: StoredSession) throws -> String {
        guard session.refresh.isEmpty, let apart = store.refreshTokenStore else { return session.refresh }
        let data: Data?
        do {
            data = try apart.retrieve(key: refreshTokenKey)
        } catch {
            throw AccountError.storage(Self.storageError(error))
        }
        guard let data, let token = String(data: data, encoding: .utf8), !token.isEmpty else { throw AccountError.notSignedIn }
        return token
    }

    /// Writes `session` to the store; with a store that keeps the refresh token apart, the token
    /// goes to its own item (unless `withRefreshToken` is false: only the user changed) and the
    /// record holds the rest.
    /// - Throws: ``AccountError/storage(_:)``; ``CredentialStoreError/readOnly`` for a read-only store.
    func save(_ session: StoredSession, withRefreshToken: Bool = true) throws {
        guard !store.isReadOnly else { throw AccountError.storage(.readOnly) }
        do {
            var record = session
            if let apart = store.refreshTokenStore {
                if withRefreshToken, !session.refresh.isEmpty {
                    try apart.store(key: refreshTokenKey, value: Data(session.refresh.utf8))
                }
                record = session.replacingRefresh(with: "")
            }
            try store.store(key: credentialKey, value: StoredSession.encoder.encode(record))
        } catch {
            throw AccountError.storage(Self.storageError(error))
        }
    }

    /// Ends `ended` on this device because of `error` (one that ``AccountError/endsSession``: the
    /// server refused the session for good), unless a newer session has replaced it meanwhile.
    func end(_ ended: StoredSession, because error: AccountError) {
        guard let session, session.isSamePair(as: ended) else { return }
        clearLocally(SignOutReason(error))
    }

    /// Forgets the session: storage first, then memory, then tells subscribers; the event says
    /// `reason` when there was a session to end (`nil`: a stored session that could not be read).
    ///
    /// A logout or a deleted account deletes the stored record whatever it holds. Otherwise it is
    /// deleted only when it is this session's (or unreadable): a pair another process stored
    /// meanwhile is left for that process to judge. A read-only store is never touched.
    func clearLocally(_ reason: SignOutReason?) {
        let ended = session
        if !store.isReadOnly {
            let stored = readStored()
            let everything = reason == .loggedOut || reason == .accountDeleted
            if everything || ended == nil || stored == nil || stored.map({ ended?.isSamePair(as: $0) == true }) == true {
                // A store that cannot remove now (locked) keeps a dead pair; the server refuses it later.
                try? store.remove(key: credentialKey)
                try? store.refreshTokenStore?.remove(key: refreshTokenKey)
            }
        }
        session = nil
        refreshTask = nil
        secondFactorChallenge = nil
        publish(.signedOut)
        if ended != nil, let reason { announce(.signedOut(reason)) }
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
