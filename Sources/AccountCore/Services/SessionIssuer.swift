import AccountAPI
import AccountStore
import Foundation

/// Opens sessions and writes what a sign-in returns: an access token and a refresh token.
package struct SessionIssuer: Sendable {
    package let policy: SessionPolicy
    package let tokens: TokenService
    package let refreshKeys: RefreshTokenKeys
    /// Where session ids and first refresh tokens are drawn from.
    package let random: Randomness

    /// Opens a session of `account` with its first refresh token (its keyed hash in the session's
    /// row), inside the caller's transaction; `amr` says how its login was authenticated (a
    /// password alone unless given), for every token it issues. It keeps `origin`'s client address
    /// (the one a refresh then updates). The caller records the sign-in's event (`signedIn`) in
    /// the same transaction.
    ///
    /// `account` is the record as `tx` locked it (``StoreTransaction/lockUser(id:)``) or inserted
    /// it, so a disabling or deletion that commits first was seen by the caller, and one that comes
    /// after revokes this session (or removes it with the account). A disabled account gets
    /// `403 account_disabled` and no session, on every way of signing in.
    package func openSession(
        for account: UserRecord, userAgent: String?, origin: EventOrigin, amr: [String] = [AuthenticationMethod.password],
        now: Date, in tx: any StoreTransaction
    ) throws -> (SessionRecord, RefreshToken) {
        if account.disabledAt != nil { throw APIError.accountDisabled }
        let userID = account.id
        var session = policy.newSession(id: random.uuid(), userID: userID, userAgent: userAgent, clientAddress: origin.clientAddress, now: now)
        session.amr = amr
        let refresh = RefreshToken.first(sessionID: session.id, keys: refreshKeys, random: random)
        try tx.insertSession(session, refresh: SessionRefresh(generation: refresh.generation, tokenHash: refresh.hash(keys: refreshKeys)))
        return (session, refresh)
    }

    /// The login reply for a session: a signed access token issued at `issuedAt` and the refresh token.
    package func tokenPair(user: UserRecord, session: SessionRecord, refresh: RefreshToken, issuedAt: Date, now: Date) async throws -> TokenPair {
        try await tokenPair(user: user, session: session, refreshText: refresh.text, issuedAt: issuedAt, now: now)
    }

    /// The same, for a refresh token given as its text (a repeat within the grace window).
    package func tokenPair(user: UserRecord, session: SessionRecord, refreshText: String, issuedAt: Date, now: Date) async throws -> TokenPair {
        let access = try await tokens.sign(
            userID: user.id, sessionID: session.id, issuedAt: issuedAt, jti: RefreshToken.accessTokenID(for: refreshText), amr: session.amr)
        return TokenPair(
            access: access, refresh: refreshText,
            expiresIn: max(0, tokens.accessTTL - Int(now.timeIntervalSince(issuedAt))),
            refreshExpiresIn: policy.refreshLifetime(of: session, now: now), user: user.wire)
    }
}
