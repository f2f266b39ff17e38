import AccountAPI
import Foundation
import Sodium
import TestSupport
import Testing
@testable import AccountStoreSQLite

/// Sessions keep the address they are used from, over HTTP against the real binary behind a
/// trusted proxy (the loopback peer, `--trusted-proxy 127.0.0.1`, forwarding `X-Forwarded-For`):
/// every way of signing in records it, a refresh moves it to the address of that use, the
/// account's own list and the operators' account page show it, ending a session forgets it, and a
/// live session without a known address shows none.
@Suite struct SessionAddressTests {
    static let proxy = ["--trusted-proxy", "127.0.0.1"]

    /// A request forwarded by the proxy for a client at `address`.
    static func from(_ address: String) -> [String: String] { ["X-Forwarded-For": address, "User-Agent": "AddressTests/1.0"] }

    static func json(_ model: some Encodable) throws -> Data { try AccountJSON.makeEncoder().encode(model) }

    /// `POST /auth/login` with the password, forwarded for `address`; expects 200.
    static func logIn(_ server: ServerProcess, _ account: TestAccount, from address: String) async throws -> TokenPair {
        let reply = try await server.client.send(
            "POST", "/auth/login", body: try json(LoginRequest(username: account.username, password: account.password)),
            contentType: "application/json", headers: from(address))
        try #require(reply.status == 200, "login: \(reply.text)")
        return try reply.decode(TokenPair.self)
    }

    /// `POST /auth/refresh` forwarded for `address` (the proxy's own request without one); expects 200.
    static func refresh(_ server: ServerProcess, _ token: String, from address: String?) async throws -> TokenPair {
        let reply = try await server.client.send(
            "POST", "/auth/refresh", body: try json(RefreshRequest(refresh: token)), contentType: "application/json",
            headers: address.map(from) ?? [:])
        try #require(reply.status == 200, "refresh: \(reply.text)")
        return try reply.decode(TokenPair.self)
    }

    /// `GET /auth/sessions`: the account's own list, each member checked.
    static func sessions(_ server: ServerProcess, _ access: String) async throws -> [SessionInfo] {
        let reply = try await server.client.send("GET", "/auth/sessions", token: access)
        try #require(reply.status == 200, "sessions: \(reply.text)")
        for member in (reply.object?["sessions"] as? [[String: Any]]) ?? [] {
            #expect(Set(member.keys) == ["id", "created_at", "last_used_at", "user_agent", "current", "client_address"])
        }
        return try reply.decode(SessionList.self).sessions
    }

    /// The address of the caller's own session.
    static func ownAddress(_ server: ServerProcess, _ pair: TokenPair) async throws -> String? {
        try #require(try await sessions(server, pair.access).first { $0.current }).clientAddress
    }

    /// The operator's account page's sessions, by id, with their addresses.
    static func adminAddresses(_ server: ServerProcess, _ pair: TokenPair, op: SignedInOperator) async throws -> [String: String?] {
        let page = try await server.client.send("GET", "/admin/api/users/\(pair.user.id.lowercasedText)", token: op.access)
        try #require(page.status == 200, "account page: \(page.text)")
        return Dictionary(uniqueKeysWithValues: try page.decode(AdminAccountPage.self).sessions.map { ($0.id, $0.clientAddress) })
    }

    /// The addresses ended sessions still keep in the database file (none, once they ended).
    static func endedAddresses(_ server: ServerProcess) async throws -> (ended: Int, withAddress: Int) {
        let query = "SELECT count(*), count(client_address) FROM sessions WHERE revoked_at IS NOT NULL;"
        let result = try await Program.run("sqlite3", [server.folder.database.path, query])
        try #require(result.status.isSuccess, "sqlite3: \(result.stderr)")
        let counts = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int($0) }
        try #require(counts.count == 2, "sqlite3: \(result.stdout)")
        return (counts[0], counts[1])
    }

    @Test func passwordLoginAndSignUpsKeepTheAddressARefreshMovesItAndEndingForgetsIt() async throws {
        let server = try await ServerProcess.start(in: nil, Self.proxy)
        let account = TestAccount("addr")
        try await server.signUp(account)
        try await server.verify(account.email)
        let laptop = try await Self.logIn(server, account, from: "203.0.113.10")
        #expect(try await Self.sessions(server, laptop.access).map(\.clientAddress) == ["203.0.113.10"])
        let phone = try await Self.logIn(server, account, from: "2001:db8::5")
        // A refresh from another address moves the laptop's; the phone keeps its own.
        let moved = try await Self.refresh(server, laptop.refresh, from: "198.51.100.20")
        var own = try await Self.sessions(server, moved.access)
        #expect(own.first { $0.current }?.clientAddress == "198.51.100.20")
        #expect(own.first { !$0.current }?.clientAddress == "2001:db8::5")
        // The proxy's own request (no header) is the proxy's address; a client's own line before
        // the proxy's hop does not count.
        let direct = try await Self.refresh(server, moved.refresh, from: nil)
        #expect(try await Self.ownAddress(server, direct) == "127.0.0.1")
        let spoofing = try await server.client.send(
            "POST", "/auth/refresh", body: try Self.json(RefreshRequest(refresh: direct.refresh)), contentType: "application/json",
            headers: ["X-Forwarded-For": "10.6.6.6, 192.0.2.77"])
        #expect(spoofing.status == 200, "\(spoofing.text)")
        let latest = try spoofing.decode(TokenPair.self)
        #expect(try await Self.ownAddress(server, latest) == "192.0.2.77")

        // Email-first sign-up: the account's first session.
        let early = TestAccount("addrfirst")
        #expect(try await server.client.send("POST", "/auth/email/code", model: EmailCodeRequest(email: early.email, purpose: .signup)).status == 202)
        var request = early.signUpRequest
        request.emailVerificationToken = try await server.verify(early.email).emailVerificationToken
        let created = try await server.client.send(
            "POST", "/auth/signup", body: try Self.json(request), contentType: "application/json", headers: Self.from("192.0.2.31"))
        #expect(created.status == 201, "\(created.text)")
        #expect(try await Self.sessions(server, try created.decode(TokenPair.self).access).map(\.clientAddress) == ["192.0.2.31"])

        // Details-first sign-up whose code signs in.
        let details = TestAccount("addrverify")
        let signUpToken = try #require(try await server.signUp(details, headers: ["User-Agent": "AddressTests/1.0", "X-Forwarded-For": "192.0.2.41"]).signUpToken)
        let code = try await server.mail.code(to: details.email)
        let verified = try await server.client.send(
            "POST", "/auth/email/verify",
            body: try Self.json(EmailVerifyRequest(email: details.email, code: code, signIn: true, signUpToken: signUpToken)),
            contentType: "application/json", headers: Self.from("192.0.2.41"))
        #expect(verified.status == 200, "\(verified.text)")
        let signedIn = try #require(try verified.decode(EmailVerified.self).session, "\(verified.text)")
        #expect(try await Self.ownAddress(server, signedIn) == "192.0.2.41")

        // Ending sessions forgets their addresses at once: a logout, then the others.
        #expect(try await server.client.send("POST", "/auth/logout", token: phone.access).status == 204)
        own = try await Self.sessions(server, latest.access)
        #expect(own.map(\.clientAddress) == ["192.0.2.77"])
        #expect(try await server.client.send("POST", "/auth/logout?scope=global", token: latest.access).status == 204)
        let ended = try await Self.endedAddresses(server)
        #expect(ended.ended == 2 && ended.withAddress == 0, "\(ended)")
        await server.stop()
    }

    @Test func secondFactorPasskeyAndAppleSignInsKeepTheAddressAndOperatorsSeeIt() async throws {
        let context = try await AppleServer.start(Self.proxy + PasskeyServer.arguments)
        let (server, clock) = (context.server, context.clock)

        // The second factor: the session opens at the answer, from where it came.
        let factor = try await server.accountWithSecondFactor("addrmfa")
        let challenge = try await server.challenge(factor.account)
        let answered = try await server.client.send(
            "POST", "/auth/mfa/verify", json: ["mfa_token": try #require(challenge.mfaToken), "code": factor.code(at: clock.nextStep())],
            headers: Self.from("192.0.2.51"))
        #expect(answered.status == 200, "\(answered.text)")
        let mfa = try answered.decode(TokenPair.self)
        #expect(try await Self.ownAddress(server, mfa) == "192.0.2.51")

        // A passkey (the software authenticator).
        let (keyAccount, keyPair) = try await server.verifiedAccount("addrkey")
        var (passkey, _) = try await server.addPasskey(keyPair.access, proof: ["password": keyAccount.password])
        let options = try await server.loginOptions()
        let assertion = passkey.assert(challenge: try #require(Base64URL.decode(options.challenge)), PasskeyServer.ceremony)
        let keyLogin = try await server.client.send(
            "POST", "/auth/passkeys/login", json: ["credential": assertion.json], headers: Self.from("192.0.2.61"))
        #expect(keyLogin.status == 200, "\(keyLogin.text)")
        let byPasskey = try keyLogin.decode(TokenPair.self)
        #expect(try await Self.ownAddress(server, byPasskey) == "192.0.2.61")

        // Sign in with Apple (the stand-in): a new Apple user's completion, then a sign-in again.
        let (sub, email) = AppleServer.newUser()
        let (appleCode, _) = context.apple.authorizationCode()
        let (token, nonce) = context.token(sub: sub, email: email)
        let first = try await server.client.send(
            "POST", "/auth/apple", json: ["identity_token": token, "nonce": nonce, "authorization_code": appleCode],
            headers: Self.from("192.0.2.71"))
        #expect(first.status == 403 && first.problem?.code == .profileRequired, "\(first.text)")
        let completed = try await server.client.send(
            "POST", "/auth/apple/complete",
            json: [
                "continuation_token": try #require(first.problem?.continuationToken), "username": "apple_\(UUID().uuidString.prefix(6).lowercased())",
                "mbti": "INTJ",
            ], headers: Self.from("192.0.2.72"))
        #expect(completed.status == 201, "\(completed.text)")
        let byCompletion = try completed.decode(TokenPair.self)
        #expect(try await Self.ownAddress(server, byCompletion) == "192.0.2.72")
        let (again, againNonce) = context.token(sub: sub, email: email)
        let appleLogin = try await server.client.send(
            "POST", "/auth/apple", json: ["identity_token": again, "nonce": againNonce], headers: Self.from("192.0.2.73"))
        #expect(appleLogin.status == 200, "\(appleLogin.text)")
        let byApple = try appleLogin.decode(TokenPair.self)
        #expect(try await Self.ownAddress(server, byApple) == "192.0.2.73")

        // The operators' account page shows what each account sees, session by session.
        let op = try await server.signedInOperator()
        for pair in [mfa, byPasskey, byApple] {
            let own = try await Self.sessions(server, pair.access)
            let shown = try await Self.adminAddresses(server, pair, op: op)
            #expect(shown == Dictionary(uniqueKeysWithValues: own.map { ($0.id.lowercasedText, $0.clientAddress) }), "\(shown) \(own)")
        }
        #expect(try await Self.adminAddresses(server, byApple, op: op).values.compactMap { $0 }.sorted() == ["192.0.2.72", "192.0.2.73"])
        // And so does `account-server admin users show`.
        let shown = try await server.adminCommand(["users", "show", email])
        #expect(shown.status.code == 0 && shown.stdout.contains("from 192.0.2.73") && shown.stdout.contains("from 192.0.2.72"), "\(shown)")
        await context.stop()
    }

    /// A database with an account and a live session without an address (written by SQL, as the
    /// column allows): that session lists `null` (on the account's list, the operators' page, the
    /// command line) beside a new login's address.
    @Test func aSessionWithoutAddressShowsNone() async throws {
        let folder = try TemporaryFolder()
        let account = TestAccount("addrold")
        let (user, session) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        do {
            let connection = try Connection(path: folder.database.path, role: .writer)
            #expect(try connection.migrate() == Migrations.steps.count)
            let hash = try PasswordHasher().hash(account.password)
            try connection.executeScript("""
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at,
                    username_skeleton, username_display_skeleton)
                    VALUES ('\(user)', '\(account.username)', '\(account.username.lowercased())', '\(account.email)', '\(account.email.lowercased())',
                    '\(hash)', 'ENFP', 1, \(now), \(now), 'folded:\(user)', 'displayed:\(user)');
                INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at, amr, refresh_generation, refresh_hash)
                    VALUES ('\(session)', '\(user)', \(now), \(now), \(now + 86_400_000), 'Old/1.0', NULL, 'pwd', 0, X'00');
                """)
        }
        let server = try await ServerProcess.start(in: folder, Self.proxy)
        let pair = try await Self.logIn(server, account, from: "203.0.113.99")
        let own = try await Self.sessions(server, pair.access)
        #expect(own.count == 2)
        #expect(own.first { $0.id.lowercasedText == session }.map { $0.clientAddress == nil && $0.userAgent == "Old/1.0" } == true, "\(own)")
        #expect(own.first { $0.current }?.clientAddress == "203.0.113.99")
        let raw = try await server.client.send("GET", "/auth/sessions", token: pair.access)
        let old = try #require((raw.object?["sessions"] as? [[String: Any]])?.first { $0["id"] as? String == session })
        #expect(old["client_address"] is NSNull, "\(raw.text)")
        let shown = try await server.adminCommand(["users", "show", account.email])
        #expect(shown.stdout.contains("from (unknown address)") && shown.stdout.contains("from 203.0.113.99"), "\(shown)")
        await server.stop()
    }
}
