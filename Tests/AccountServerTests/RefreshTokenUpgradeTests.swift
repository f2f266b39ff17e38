import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import InProcess
import Sodium
import TestSupport
import Testing
@testable import AccountServer
@testable import AccountStoreSQLite

/// A database made by the build before sessions kept their current refresh token, with a session
/// and the refresh token that build issued, upgraded by the server's start: the token refreshes
/// once, moving the session on to tokens of today's layout, and is reuse afterwards.
@Suite("Refresh tokens from before the upgrade")
struct RefreshTokenUpgradeTests {
    /// A database at the schema before `refreshInSession` with one account and one session whose
    /// current token is `token` (as that build stored it: the SHA-256 of its text).
    static func oldDatabase(at path: String, token: OpaqueToken, now: Date) throws -> UUID {
        let connection = try Connection(path: path, role: .writer)
        _ = try connection.migrate(upTo: try #require(Migrations.steps.firstIndex(of: Migrations.refreshInSession)))
        let (user, session) = (UUID(), UUID())
        let ms = { (date: Date) in Int64(date.timeIntervalSince1970 * 1000) }
        let (opened, expires) = (ms(now.addingTimeInterval(-3600)), ms(now.addingTimeInterval(80 * 86400)))
        try connection.executeScript("""
            INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at)
                VALUES ('\(user.lowercasedText)', 'Mina', 'mina', 'mina@example.com', 'mina@example.com', 'x', 'INTJ', 1, \(opened), \(opened));
            INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at, amr)
                VALUES ('\(session.lowercasedText)', '\(user.lowercasedText)', \(opened), \(opened), \(expires), 'App/1.0', NULL, 'pwd');
            INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at, used_by)
                VALUES (X'\(token.hash.map { String(format: "%02x", $0) }.joined())', '\(session.lowercasedText)', \(opened), NULL, NULL);
            """)
        return session
    }

    /// A server started (and so migrated) on a database of before whose session's token is `token`.
    static func upgradedServer(token: OpaqueToken) async throws -> (InProcessServer, UUID) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("account.sqlite")
        let clock = TestClock()
        let sessionID = try oldDatabase(at: database.path, token: token, now: clock.now)
        return (try await InProcessServer.start(folder: folder, database: database, clock: clock), sessionID)
    }

    func refresh(_ server: InProcessServer, _ token: String, userAgent: String = "App/1.0") async -> Reply {
        Reply(response: await server.app.handle(HTTPRequest(
            method: "POST", path: "/auth/refresh", query: [:], headers: ["Content-Type": "application/json", "User-Agent": userAgent],
            body: Array("{\"refresh\":\"\(token)\"}".utf8))))
    }

    @Test("a token from before refreshes once, its repeat goes to its client alone, and later it is reuse")
    func oldTokenAfterUpgrade() async throws {
        // What the build before issued: 256 random bits, base64url.
        let old = OpaqueToken.random()
        let (server, sessionID) = try await Self.upgradedServer(token: old)

        let first = await refresh(server, old.text)
        #expect(first.status == 200, "\(first.text)")
        let pair = try first.decode(TokenPair.self)
        let keys = server.app.services.secrets.refreshKeys
        let token = try #require(RefreshToken(text: pair.refresh, keys: keys))
        #expect(token.sessionID == sessionID && token.generation == 1)
        #expect(try await server.store.read { try $0.refreshableSession(id: sessionID) }?.refresh?.tokenHash == token.hash(keys: keys))
        let me = try await server.send("GET", "/auth/me", token: pair.access)
        #expect(me.status == 200 && me["username"] as? String == "Mina")
        // The old row is left as it was: read, never written.
        #expect(try await server.store.read { try $0.refreshToken(hash: old.hash) }?.usedAt == .some(nil))

        server.clock.advance(2)
        let again = await refresh(server, old.text)
        #expect(again.status == 200)
        #expect(try again.decode(TokenPair.self).refresh == pair.refresh)
        #expect(try again.decode(TokenPair.self).access == pair.access)

        server.clock.advance(60)
        let next = await refresh(server, pair.refresh)
        #expect(next.status == 200)
        let reused = await refresh(server, old.text)
        #expect(reused.status == 401 && reused.code == "refresh_token_reused")
        #expect(await refresh(server, try next.decode(TokenPair.self).refresh).code == "session_revoked")
        #expect(server.app.metrics.refreshes(.rotated) == 2 && server.app.metrics.refreshes(.repeated) == 1)
    }

    @Test("after the upgrade, the repeat of a token from before from another client is reuse")
    func oldTokenRepeatedElsewhere() async throws {
        let old = OpaqueToken.random()
        let (server, _) = try await Self.upgradedServer(token: old)
        let pair = try await refresh(server, old.text).decode(TokenPair.self)
        server.clock.advance(1)
        let stolen = await refresh(server, old.text, userAgent: "Thief/1.0")
        #expect(stolen.code == "refresh_token_reused")
        #expect(await refresh(server, pair.refresh).code == "session_revoked")
    }
}
