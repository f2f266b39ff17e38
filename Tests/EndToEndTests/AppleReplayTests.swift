import AccountAPI
import Foundation
import TestSupport
import Testing

/// An Apple identity token with its raw nonce is accepted once, whatever it was accepted for: a
/// login, a `profile_required` continuation, a link, the proof of a sensitive change. A second use
/// (a log, a proxy, a device backup) is refused like every other failure, logged `replayed`.
@Suite(.serialized) struct AppleReplayTests {
    @Test func aTokenThatSignedInDoesNotSignInAgain() async throws {
        let context = try await AppleServer.start()
        let (sub, email, _, pair) = try await context.appleAccount("replay")
        let (token, nonce) = context.token(sub: sub, email: email)
        let first = try await context.signIn(token, nonce: nonce)
        #expect(first.status == 200, "\(first.text)")
        let before = try await context.server.rowCounts()

        let again = try await context.signIn(token, nonce: nonce)
        #expect(again.status == 401 && again.problem?.code == .appleTokenInvalid, "\(again.status) \(again.text)")
        let broken = try await context.signIn(token, nonce: "not its nonce")
        #expect(broken.status == 401 && problemShape(again) == problemShape(broken), "a replay is answered like any other refused token: \(again.text) / \(broken.text)")
        #expect(try await context.server.rowCounts() == before, "a replay writes nothing: no session")
        // Still refused later, while it has not expired (and then as expired).
        context.clock.advance(300)
        #expect(try await context.signIn(token, nonce: nonce).status == 401)
        // A fresh token of the same Apple ID is another token.
        let (fresh, freshNonce) = context.token(sub: sub, email: email)
        let signedIn = try await context.signIn(fresh, nonce: freshNonce)
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(try signedIn.decode(TokenPair.self).user.id == pair.user.id)
        await context.stop()
        let refusals = context.server.logs.split(separator: "\n").filter { $0.contains("\"apple_token_refused\"") && $0.contains("\"reason\":\"replayed\"") }
        #expect(refusals.count == 2, "\(refusals)")
        #expect(refusals.allSatisfy { $0.contains("\"via\":\"apple_login\"") })
        #expect(!context.server.logs.contains(token))
    }

    /// A continuation spends the token: replaying it must not make a second continuation, whose
    /// completion would give the replayer an account on someone else's Apple ID.
    @Test func aTokenThatGotAContinuationIsSpent() async throws {
        let context = try await AppleServer.start()
        let (sub, email) = AppleServer.newUser()
        let (token, nonce) = context.token(sub: sub, email: email)
        let first = try await context.signIn(token, nonce: nonce)
        #expect(first.status == 403 && first.problem?.code == .profileRequired, "\(first.text)")
        let continuation = try #require(first.problem?.continuationToken)

        let replay = try await context.signIn(token, nonce: nonce)
        #expect(replay.status == 401 && replay.problem?.code == .appleTokenInvalid && replay.problem?.continuationToken == nil, "\(replay.text)")
        #expect(try await context.server.rowCounts()["apple_continuations"] == 1, "no second continuation")

        // The first continuation still completes; then the token signs nobody in.
        let done = try await context.complete(continuation, username: "spent_\(UUID().uuidString.prefix(6).lowercased())")
        #expect(done.status == 201, "\(done.text)")
        #expect(try await context.signIn(token, nonce: nonce).status == 401)

        await context.stop()
        #expect(context.server.logs.contains("\"reason\":\"replayed\""))
    }

    @Test func aTokenThatAskedForTheSecondFactorIsSpent() async throws {
        let context = try await AppleServer.start()
        let server = context.server
        let protected = try await server.accountWithSecondFactor("mfareplay")
        let sub = AppleServer.newUser().sub
        let (linkToken, linkNonce) = context.token(sub: sub, email: protected.account.email)
        let proof: [String: Any] = ["password": protected.account.password, "code": protected.code(at: context.clock.nextStep())]
        #expect(try await server.client.send(
            "POST", "/auth/apple/link", json: proof.merging(["identity_token": linkToken, "nonce": linkNonce]) { $1 }, token: protected.pair.access).status == 200)
        let (token, nonce) = context.token(sub: sub, email: protected.account.email)
        #expect(try await context.signIn(token, nonce: nonce).problem?.code == .mfaRequired)
        let replay = try await context.signIn(token, nonce: nonce)
        #expect(replay.status == 401 && replay.problem?.code == .appleTokenInvalid && replay.problem?.mfaToken == nil, "\(replay.text)")
        await context.stop()
    }

    @Test func aLinkingTokenLinksOnceAndSignsNobodyIn() async throws {
        let context = try await AppleServer.start()
        let server = context.server
        let (account, pair) = try await server.verifiedAccount("linkreplay")
        let sub = AppleServer.newUser().sub
        let (token, nonce) = context.token(sub: sub, email: account.email)
        let password: [String: Any] = ["password": account.password]
        let body: [String: Any] = password.merging(["identity_token": token, "nonce": nonce]) { $1 }
        #expect(try await server.client.send("POST", "/auth/apple/link", json: body, token: pair.access).status == 200)

        // The token being linked is refused as the request's body, not its bearer token: 403.
        let again = try await server.client.send("POST", "/auth/apple/link", json: body, token: pair.access)
        #expect(again.status == 403 && again.problem?.code == .appleTokenInvalid, "\(again.text)")
        // Unlinked, a replay may not link it back, nor sign in with it once linked again.
        #expect(try await server.client.send("DELETE", "/auth/apple/link", json: password, token: pair.access).status == 204)
        #expect(try await server.client.send("POST", "/auth/apple/link", json: body, token: pair.access).status == 403)
        #expect(try await server.me(pair.access).decode(User.self).appleLinked == false)
        let (relink, relinkNonce) = context.token(sub: sub, email: account.email)
        #expect(try await server.client.send(
            "POST", "/auth/apple/link", json: password.merging(["identity_token": relink, "nonce": relinkNonce]) { $1 }, token: pair.access).status == 200)
        #expect(try await context.signIn(token, nonce: nonce).status == 401, "the link's token is no login")
        #expect(try await context.signIn(relink, nonce: relinkNonce).status == 401)

        // A login's token links nothing either: another account tries it after the login.
        let (thief, otherPair) = try await server.verifiedAccount("linkthief")
        let (login, loginNonce) = context.token(sub: sub, email: account.email)
        #expect(try await context.signIn(login, nonce: loginNonce).status == 200)
        let stolen = try await server.client.send(
            "POST", "/auth/apple/link", json: ["identity_token": login, "nonce": loginNonce, "password": thief.password], token: otherPair.access)
        #expect(stolen.status == 409 || stolen.status == 403, "\(stolen.text)")
        await context.stop()
        #expect(server.logs.contains("\"via\":\"apple_link\"") && server.logs.contains("\"reason\":\"replayed\""))
    }

    /// The proof of a sensitive change by a passwordless Apple account spends the token with the
    /// change: a replay proves nothing, on the same change or another, and no login either.
    @Test func aProofIsSpentWithTheChangeItAllows() async throws {
        let context = try await AppleServer.start()
        let server = context.server
        let (sub, email, _, pair) = try await context.appleAccount("proofreplay")
        let (token, nonce) = context.token(sub: sub, email: email)
        let proof: [String: Any] = ["apple_identity_token": token, "apple_nonce": nonce]

        let enrolled = try await server.client.send("POST", "/auth/mfa/totp", json: proof, token: pair.access)
        #expect(enrolled.status == 200, "\(enrolled.text)")
        let again = try await server.client.send("POST", "/auth/mfa/totp", json: proof, token: pair.access)
        #expect(again.status == 403 && again.problem?.code == .appleTokenInvalid, "\(again.text)")
        // A refused proof changes nothing but the back-off's count and the account's history of it.
        let counted: Set<String> = ["login_throttle", "security_events"]
        let before = try await server.rowCounts().filter { !counted.contains($0.key) }
        let deleted = try await server.client.send("DELETE", "/auth/me", json: proof, token: pair.access)
        #expect(deleted.status == 403 && deleted.problem?.code == .appleTokenInvalid, "\(deleted.text)")
        #expect(try await server.rowCounts().filter { !counted.contains($0.key) } == before, "nothing deleted")
        #expect(try await server.me(pair.access).status == 200)
        #expect(try await context.signIn(token, nonce: nonce).status == 401, "a proof's token is no login")

        // A login's token proves nothing afterwards.
        let (login, loginNonce) = context.token(sub: sub, email: email)
        #expect(try await context.signIn(login, nonce: loginNonce).status == 200)
        let byLogin = try await server.client.send(
            "DELETE", "/auth/me", json: ["apple_identity_token": login, "apple_nonce": loginNonce], token: pair.access)
        #expect(byLogin.status == 403 && byLogin.problem?.code == .appleTokenInvalid)

        // A fresh one does.
        let (fresh, freshNonce) = context.token(sub: sub, email: email)
        let gone = try await server.client.send(
            "DELETE", "/auth/me", json: ["apple_identity_token": fresh, "apple_nonce": freshNonce], token: pair.access)
        #expect(gone.status == 204, "\(gone.text)")
        await context.stop()
        let logs = server.logs
        #expect(logs.contains("\"via\":\"mfa_enroll\"") && logs.contains("\"via\":\"account_delete\"") && logs.contains("\"reason\":\"replayed\""))
    }
}

/// A problem reply's members but those naming the request, which differ between any two.
private func problemShape(_ reply: Reply) -> [String: String] {
    (reply.object ?? [:]).filter { !["request_id", "instance"].contains($0.key) }.mapValues { "\($0)" }
}

extension ServerProcess {
    /// Rows of every table an accepted Apple token can write to, read from the server's SQLite
    /// file by the `sqlite3` program: what a refused replay must leave as it was.
    func rowCounts() async throws -> [String: Int] {
        let tables = [
            "users", "sessions", "totp_factors", "recovery_codes", "mfa_challenges", "outbox", "security_events",
            "apple_identities", "apple_continuations", "apple_used_tokens",
        ]
        let query = tables.map { "SELECT '\($0)', COUNT(*) FROM \($0)" }.joined(separator: " UNION ALL ") + ";"
        let result = try await Program.run("sqlite3", ["-separator", " ", folder.database.path, query])
        try #require(result.status == 0, "\(result.stderr)")
        var counts: [String: Int] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
        }
        try #require(counts.count == tables.count, "\(result.stdout)")
        return counts
    }
}
