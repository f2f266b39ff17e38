import AccountAPI
import Foundation
import TestSupport
import Testing

/// The admin API's accounts against the real binary: who may call it, each action and its effect
/// on the app's own endpoints (at once, through the read model and the verified-token cache), the
/// audit event each writes, and what is refused with nothing written.
///
/// The account page's `events` are the account's own security history, which also records what
/// the operator did.
@Suite struct AdminAccountsTests {
    func start(_ extra: [String] = []) async throws -> (ServerProcess, TestClock) {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        return (try await ServerProcess.start(in: folder, clock: clock, extra), clock)
    }

    static let routes: [(String, String)] = [("GET", "/admin/api/users"), ("GET", "/admin/api/users/{id}")]
        + ["disable", "enable", "end-sessions", "resend-verification", "remove-second-factor", "delete"].map { ("POST", "/admin/api/users/{id}/" + $0) }

    @Test func everyRouteNeedsTheRoleAndASecondFactor() async throws {
        let (server, _) = try await start()
        let op = try await server.signedInOperator()
        let (target, targetPair) = try await server.verifiedAccount("target")
        let targetID = server.accountID(targetPair)
        // The operator's own password-only session (the enrolment's), and a plain account's.
        let passwordOnly = op.factor.pair.access
        let (_, plainPair) = try await server.verifiedAccount("plain")
        for (method, pattern) in Self.routes {
            let path = pattern.replacingOccurrences(of: "{id}", with: targetID)
            let body: [String: Any]? = method == "POST" ? ["reason": "tests"] : nil
            let anonymous = try await server.client.send(method, path, json: body)
            #expect(anonymous.status == 401, "\(path): \(anonymous.text)")
            let plain = try await server.client.send(method, path, json: body, token: plainPair.access)
            #expect(plain.status == 403 && plain.problem?.code == .adminRequired, "\(path): \(plain.text)")
            let weak = try await server.client.send(method, path, json: body, token: passwordOnly)
            #expect(weak.status == 403 && weak.problem?.code == .secondFactorRequired, "\(path): \(weak.text)")
        }
        // Nothing was done: the target signs in, and no action is in the audit log.
        #expect(try await server.me(targetPair.access).status == 200)
        _ = try await server.logIn(target)
        #expect(try await server.auditEvents(token: op.access).allSatisfy { $0.action == "admin_granted" })
        #expect(try await server.adminSearch("", token: op.access).status == 200)
        await server.stop()
    }

    @Test func disableEndsEverySessionAtOnceAndEnableLetsTheAccountBackIn() async throws {
        let (server, _) = try await start()
        let op = try await server.signedInOperator()
        let (target, first) = try await server.verifiedAccount("target")
        let second = try await server.logIn(target)
        let id = server.accountID(first)
        // Both tokens verified once and their sessions read: the cache and the read model hold them.
        for pair in [first, second] {
            #expect(try await server.me(pair.access).status == 200)
            #expect(try await server.me(pair.access).status == 200)
        }

        let disabled = try await server.client.send(
            "POST", "/admin/api/users/\(id)/disable", json: ["reason": "  spam from this account  "], token: op.access,
            headers: ["X-Request-Id": "disable-test-1"])
        #expect(disabled.status == 200, "\(disabled.text)")
        let row = try disabled.decode(AdminUser.self)
        #expect(row.id == id && row.disabled && row.username == target.username && !row.isAdmin && row.lastLoginAt != nil)
        #expect(Set(try #require(disabled.object).keys) == [
            "id", "username", "email", "mbti", "email_verified", "mfa_enabled", "disabled", "is_admin", "created_at", "last_login_at",
        ])
        // The very next request with an old access token, and the refresh tokens: refused.
        for pair in [first, second] {
            let me = try await server.me(pair.access)
            #expect(me.status == 401, "\(me.text)")
            #expect(try await server.client.send("GET", "/auth/sessions", token: pair.access).status == 401)
            let refreshed = try await server.refresh(pair.refresh)
            #expect(refreshed.status == 401, "\(refreshed.text)")
        }
        let login = try await server.client.send("POST", "/auth/login", model: LoginRequest(username: target.username, password: target.password))
        #expect(login.status == 403 && login.problem?.code == .accountDisabled, "\(login.text)")
        let page = try await server.client.send("GET", "/admin/api/users/\(id)", token: op.access)
        let account = try page.decode(AdminAccountPage.self)
        #expect(account.user.row.disabled && account.user.disabledAt != nil && account.sessions.isEmpty)
        // The account's history: its two logins, then what the operator did (no operator address).
        let types = account.events.map(\.type)
        #expect(Set(types.prefix(2)) == ["account_disabled", "session_ended"] && types.filter { $0 == "login_succeeded" }.count == 2, "\(types)")
        let ended = try #require(account.events.first { $0.type == "session_ended" })
        #expect(ended.detail == ["reason": "account_disabled", "count": "2"] && ended.clientAddress == nil && ended.deviceName == nil)
        #expect(Set(try #require(page.object).keys) == ["user", "sessions", "passkeys", "second_factor", "events"])

        // Disabling again keeps the first time; the audit log has both, with reason and request id.
        let again = try await server.adminAction("disable", on: id, reason: "still spam", token: op.access)
        #expect(again.status == 200)
        let pageAgain = try await server.client.send("GET", "/admin/api/users/\(id)", token: op.access).decode(AdminAccountPage.self)
        #expect(pageAgain.user.disabledAt == account.user.disabledAt)
        let events = try await server.auditEvents(token: op.access)
        let disabling = try #require(events.last { $0.action == "account_disabled" })
        #expect(disabling.actor == "account:\(op.id)" && disabling.targetId == id && disabling.reason == "spam from this account")
        #expect(disabling.requestId == "disable-test-1")

        let enabled = try await server.adminAction("enable", on: id, reason: "appeal accepted", token: op.access)
        #expect(enabled.status == 200, "\(enabled.text)")
        #expect(try enabled.decode(AdminUser.self).disabled == false)
        // Old sessions stay ended; a new login works.
        #expect(try await server.me(first.access).status == 401)
        let back = try await server.logIn(target)
        #expect(try await server.me(back.access).status == 200)
        let enabling = try #require(try await server.auditEvents(token: op.access).first)
        #expect(enabling.action == "account_enabled" && enabling.reason == "appeal accepted" && enabling.targetId == id)
        await server.stop()
    }

    @Test func refusalsWriteNothing() async throws {
        let (server, _) = try await start()
        let op = try await server.signedInOperator()
        let (target, pair) = try await server.verifiedAccount("target")
        let id = server.accountID(pair)
        let before = try await server.auditEvents(token: op.access).count

        for action in ["disable", "enable", "end-sessions", "resend-verification", "remove-second-factor", "delete"] {
            for body in [[:], ["reason": ""], ["reason": " \n "]] as [[String: Any]] {
                let reply = try await server.client.send("POST", "/admin/api/users/\(id)/\(action)", json: body, token: op.access)
                #expect(reply.status == 422 && reply.problem?.errors?["reason"]?.map(\.code) == [.required], "\(action) \(body): \(reply.text)")
            }
            let empty = try await server.client.send("POST", "/admin/api/users/\(id)/\(action)", token: op.access)
            #expect(empty.status == 422 && empty.problem?.errors?["reason"]?.map(\.code) == [.required], "\(action): \(empty.text)")
            let long = try await server.adminAction(action, on: id, reason: String(repeating: "가", count: 501), token: op.access)
            #expect(long.status == 422 && long.problem?.errors?["reason"]?.map(\.code) == [.tooLong], "\(action): \(long.text)")
            let wrongType = try await server.client.send("POST", "/admin/api/users/\(id)/\(action)", json: ["reason": 5], token: op.access)
            #expect(wrongType.status == 400 && wrongType.problem?.code == .invalidRequest, "\(action): \(wrongType.text)")
            for unknown in [UUID().uuidString.lowercased(), "not-an-id"] {
                let reply = try await server.adminAction(action, on: unknown, token: op.access)
                #expect(reply.status == 404 && reply.problem?.code == .notFound, "\(action) \(unknown): \(reply.text)")
            }
        }
        #expect(try await server.client.send("GET", "/admin/api/users/\(UUID().uuidString)", token: op.access).problem?.code == .notFound)
        #expect(try await server.client.send("GET", "/admin/api/users/nope", token: op.access).status == 404)
        // The operator may not disable or delete their own account (but the 500 characters are fine).
        for action in ["disable", "delete"] {
            let reply = try await server.adminAction(action, on: op.id, reason: String(repeating: "x", count: 500), token: op.access)
            #expect(reply.status == 409 && reply.problem?.code == .cannotActOnSelf, "\(action): \(reply.text)")
        }
        #expect(try await server.auditEvents(token: op.access).count == before)
        #expect(try await server.me(pair.access).status == 200)
        #expect(try await server.me(op.access).status == 200)
        _ = try await server.logIn(target)
        await server.stop()
    }

    @Test func endSessionsRemoveSecondFactorAndDelete() async throws {
        let (server, _) = try await start()
        let op = try await server.signedInOperator()

        // End sessions: both of the account's sessions end at once; it may log in again.
        let (target, first) = try await server.verifiedAccount("target")
        let second = try await server.logIn(target)
        let id = server.accountID(first)
        let account = try await server.client.send("GET", "/admin/api/users/\(id)", token: op.access)
        #expect(account.status == 200, "\(account.text)")
        let page = try account.decode(AdminAccountPage.self)
        #expect(page.sessions.count == 2 && page.passkeys.isEmpty && page.secondFactor == AdminSecondFactor(totp: false, recoveryCodesLeft: 0))
        #expect(page.sessions.allSatisfy { $0.clientAddress == "127.0.0.1" }, "the address each was used from")
        // The sessions the account itself sees, with the User-Agent of each login as the device.
        let ownView = try await server.client.send("GET", "/auth/sessions", token: first.access).decode(SessionList.self)
        #expect(ownView.sessions.map { $0.id.lowercasedText } == page.sessions.map(\.id))
        #expect(ownView.sessions.map(\.userAgent) == page.sessions.map(\.deviceName))
        #expect(Set(try #require(account.object).keys) == ["user", "sessions", "passkeys", "second_factor", "events"])
        #expect((try #require(account.object?["user"] as? [String: Any])).keys.contains("disabled_at"))
        for pair in [first, second] { #expect(try await server.me(pair.access).status == 200) }
        let ended = try await server.adminAction("end-sessions", on: id, reason: "lost phone", token: op.access)
        #expect(ended.status == 200, "\(ended.text)")
        #expect(try ended.decode(AdminSessionsEnded.self).ended == 2)
        for pair in [first, second] {
            #expect(try await server.me(pair.access).status == 401)
            #expect(try await server.refresh(pair.refresh).status == 401)
        }
        #expect(try await server.adminAction("end-sessions", on: id, token: op.access).decode(AdminSessionsEnded.self).ended == 0)
        let again = try await server.logIn(target)
        #expect(try await server.me(again.access).status == 200)
        let history = try await server.client.send("GET", "/auth/security-events", token: again.access).decode(SecurityEventPage.self)
        #expect(history.events.contains { $0.type == "session_ended" && $0.detail == ["reason": "operator", "count": "2"] }, "\(history)")

        // Remove the second factor: the next login needs the password alone; the owner is told.
        let secured = try await server.accountWithSecondFactor("secured")
        let securedID = secured.pair.user.id.lowercasedText
        _ = try await server.challenge(secured.account)
        let mailBefore = server.mail.messages(to: secured.account.email).count
        let removed = try await server.adminAction("remove-second-factor", on: securedID, reason: "lost the authenticator", token: op.access)
        #expect(removed.status == 200, "\(removed.text)")
        #expect(try removed.decode(AdminUser.self).mfaEnabled == false)
        let plainLogin = try await server.logIn(secured.account)
        #expect(try amr(plainLogin.access) == ["pwd"])
        let securedPage = try await server.client.send("GET", "/admin/api/users/\(securedID)", token: op.access).decode(AdminAccountPage.self)
        #expect(securedPage.secondFactor == AdminSecondFactor(totp: false, recoveryCodesLeft: 0))
        #expect(securedPage.events.map(\.type).prefix(2) == ["login_succeeded", "mfa_disabled"], "\(securedPage.events)")
        #expect(securedPage.events.first { $0.type == "mfa_disabled" }?.detail == ["by": "operator"])
        _ = try await server.mail.arrived(mailBefore + 1, to: secured.account.email)

        // Delete: as the owner's own deletion; the nickname is free again; the audit event keeps the id.
        let (doomed, doomedPair) = try await server.verifiedAccount("doomed")
        let doomedID = server.accountID(doomedPair)
        let deleted = try await server.adminAction("delete", on: doomedID, reason: "asked by mail", token: op.access)
        #expect(deleted.status == 204 && deleted.body.isEmpty, "\(deleted.text)")
        #expect(try await server.me(doomedPair.access).status == 401)
        #expect(try await server.refresh(doomedPair.refresh).status == 401)
        let gone = try await server.client.send("POST", "/auth/login", model: LoginRequest(username: doomed.username, password: doomed.password))
        #expect(gone.status == 401 && gone.problem?.code == .invalidCredentials)
        #expect(try await server.client.send("GET", "/admin/api/users/\(doomedID)", token: op.access).status == 404)
        #expect(try await server.adminAction("delete", on: doomedID, token: op.access).status == 404)
        try await server.signUp(doomed)

        let events = try await server.auditEvents(token: op.access)
        #expect(Array(events.prefix(4).map(\.action)) == ["account_deleted", "second_factor_removed", "sessions_ended", "sessions_ended"])
        #expect(events[0].targetId == doomedID && events[0].reason == "asked by mail" && events[0].actor == "account:\(op.id)")
        #expect(events[1].targetId == securedID && events[2].targetId == id && events.allSatisfy { $0.requestId != nil || $0.actor.hasPrefix("cli:") })
        await server.stop()
    }

    @Test func resendVerificationGoesThroughTheCodeIssuerAndItsLimits() async throws {
        // The operator is made with mail to files (the test helpers read codes there), then the
        // server starts again on the same database with mail to a real SMTP server.
        let (first, clock) = try await start()
        let op = try await first.signedInOperator()
        await first.stop()
        let sink = try await SmtpSink()
        let server = try await ServerProcess.start(
            in: first.folder, clock: clock, ["--mail", sink.url().absoluteString, "--allow-unverified-login"])
        let account = TestAccount("unverified")
        try await server.signUp(account)
        let pair = try await server.logIn(account)
        let id = server.accountID(pair)
        #expect(pair.user.emailVerified == false)
        try await eventually("the sign-up's mail") { sink.messages().contains { $0.contains("To: \(account.email)") } }

        // Within the sign-up code's cooldown: 429 with Retry-After, and nothing is recorded.
        let early = try await server.adminAction("resend-verification", on: id, reason: "user asked", token: op.access)
        #expect(early.status == 429 && early.problem?.code == .rateLimited && early.header("Retry-After") != nil, "\(early.text)")
        clock.advance(61)
        let resent = try await server.adminAction("resend-verification", on: id, reason: "user asked", token: op.access)
        #expect(resent.status == 202 && resent.text == "{}", "\(resent.text)")
        try await eventually("the resent code's mail") { sink.messages().filter { $0.contains("To: \(account.email)") }.count == 2 }
        let messages = sink.messages().filter { $0.contains("To: \(account.email)") }
        let code = try #require(messages.compactMap(MailFolder.code(in:)).last)
        let verified = try await server.client.send("POST", "/auth/email/verify", model: EmailVerifyRequest(email: account.email, code: code))
        #expect(verified.status == 200, "the mailed code verifies the address: \(verified.text)")
        clock.advance(61)
        let done = try await server.adminAction("resend-verification", on: id, reason: "again", token: op.access)
        #expect(done.status == 409 && done.problem?.code == .alreadyVerified, "\(done.text)")
        let actions = try await server.auditEvents(token: op.access).map(\.action).filter { $0 == "verification_resent" }
        #expect(actions.count == 1, "only the resend that went out is recorded")
        await server.stop()
    }
}
