import AccountAPI
import Foundation
import TestSupport
import Testing

/// `GET /auth/security-events` against the real binary: every kind of action leaves its event on
/// its own account (and only there), with the address and the device, nothing secret in it;
/// refreshes leave none; pages follow one another; another account's events never show.
@Suite struct SecurityEventsTests {
    static let appAgent = "MBTI%20Playground/1.2 (iPhone15,2; iOS 17.4; build 42) AccountKit"
    static let appDevice = "MBTI Playground 1.2 · iPhone15,2 · iOS 17.4"

    func events(_ server: ServerProcess, _ token: String, _ query: String = "") async throws -> SecurityEventPage {
        let reply = try await server.client.send("GET", "/auth/security-events" + query, token: token)
        try #require(reply.status == 200, "\(reply.status) \(reply.text)")
        return try reply.decode(SecurityEventPage.self)
    }

    /// Every event of the account, newest first; events of one transaction (one moment) in type order.
    func all(_ server: ServerProcess, _ token: String) async throws -> [SecurityEvent] {
        let events = try await events(server, token, "?limit=100").events
        return Dictionary(grouping: events, by: \.at).sorted { $0.key > $1.key }.flatMap { $0.value.sorted { $0.type < $1.type } }
    }

    /// A code of the authenticator that is not the one it shows now (every digit moved).
    func wrongCode(_ right: String) -> String {
        String(right.map { Character(String((Int(String($0))! + 5) % 10)) })
    }

    @Test func everyKindOfActionLeavesItsEventOnItsOwnAccount() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        // Every notice of the changes below reaches the owner: no mail budget in the way.
        let server = try await ServerProcess.start(
            in: folder, clock: clock, PasskeyServer.arguments + ["--mail-interval", "0", "--mail-per-hour", "0"])
        let other = try await server.verifiedAccount("other")

        // Signed in, then the authenticator turned on (the enrolment's session stays).
        let mina = try await server.accountWithSecondFactor("mina")
        let account = mina.account
        var password = account.password
        // A wrong code, then the right one from the app's device; then a recovery code.
        var challenge = try await server.challenge(account)
        let step = clock.nextStep()
        #expect(try await server.answer(challenge.mfaToken, code: wrongCode(mina.code(at: step))).status == 400)
        // A second between actions, so that only the events of one transaction share a moment.
        clock.advance(1)
        let appReply = try await server.client.send(
            "POST", "/auth/mfa/verify", json: ["mfa_token": challenge.mfaToken ?? "", "code": mina.code(at: step)], headers: ["User-Agent": Self.appAgent])
        try #require(appReply.status == 200, "\(appReply.text)")
        let app = try appReply.decode(TokenPair.self)
        clock.advance(1)
        challenge = try await server.challenge(account)
        let recovered = try await server.answer(challenge.mfaToken, recoveryCode: mina.recoveryCodes[0])
        try #require(recovered.status == 200, "\(recovered.text)")
        let byRecovery = try recovered.decode(TokenPair.self)
        clock.advance(1)
        // A wrong password: a failed attempt of the account. An unknown account's leaves nothing anywhere.
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong horse 12345"]).status == 401)
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": "nobody_here_1", "password": "wrong horse 12345"]).status == 401)
        clock.advance(1)

        // A refresh is no event; its token used again after the grace ends the session (an event).
        let rotated = try await server.refresh(byRecovery.refresh)
        #expect(rotated.status == 200)
        let afterRefresh = try await all(server, app.access)
        clock.advance(60)
        #expect(try await server.refresh(byRecovery.refresh).problem?.code == .refreshTokenReused)
        clock.advance(1)

        // A passkey added, used to sign in, removed.
        var (passkey, added) = try await server.addPasskey(
            app.access, name: "내 아이폰", proof: ["password": password, "code": mina.code(at: clock.nextStep())])
        clock.advance(1)
        let passkeyLogin = try await server.passkeyLogin(&passkey)
        try #require(passkeyLogin.status == 200, "\(passkeyLogin.text)")
        let byPasskey = try passkeyLogin.decode(TokenPair.self)
        clock.advance(1)
        let removed = try await server.client.send(
            "DELETE", "/auth/passkeys/\(added.id)", json: ["password": password, "code": mina.code(at: clock.nextStep())], token: app.access)
        #expect(removed.status == 204, "\(removed.text)")
        clock.advance(1)
        // New recovery codes; the passkey's session ended from the list.
        let codes = try await server.client.send(
            "POST", "/auth/mfa/recovery-codes", json: ["password": password, "code": mina.code(at: clock.nextStep())], token: app.access)
        #expect(codes.status == 200, "\(codes.text)")
        let newCodes = try codes.decode(RecoveryCodes.self).recoveryCodes
        clock.advance(1)
        let passkeySession = try #require(try await server.client.send("GET", "/auth/sessions", token: byPasskey.access)
            .decode(SessionList.self).sessions.first { $0.current }?.id)
        #expect(try await server.client.send("DELETE", "/auth/sessions/\(passkeySession.uuidString.lowercased())", token: app.access).status == 204)
        clock.advance(1)

        // The password: a wrong current one, then the change (the enrolment's session ends with it).
        let newPassword = "Pw-new-\(UUID().uuidString)"
        #expect(try await server.client.send(
            "POST", "/auth/password/change", json: ["current_password": "not it at all 1", "new_password": newPassword, "code": mina.code(at: clock.nextStep())],
            token: app.access).status == 403)
        clock.advance(1)
        let changed = try await server.client.send(
            "POST", "/auth/password/change", json: ["current_password": password, "new_password": newPassword, "code": mina.code(at: clock.nextStep())],
            token: app.access)
        #expect(changed.status == 204, "\(changed.text)")
        password = newPassword
        clock.advance(1)
        // The second factor off; logged out here; the password reset by mail; signed in again.
        let disabled = try await server.client.send(
            "DELETE", "/auth/mfa/totp", json: ["password": password, "code": mina.code(at: clock.nextStep())], token: app.access)
        #expect(disabled.status == 204, "\(disabled.text)")
        clock.advance(1)
        #expect(try await server.client.send("POST", "/auth/logout", token: app.access).status == 204)
        clock.advance(1)
        #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": account.email]).status == 202)
        // The second message with a code (after the sign-up's), among the notices of the changes.
        var resetCode = ""
        try await eventually("the reset code is mailed") {
            let codes = server.mail.messages(to: account.email).compactMap(MailFolder.code(in:))
            if codes.count == 2 { resetCode = codes[1] }
            return codes.count == 2
        }
        password = "Pw-reset-\(UUID().uuidString)"
        #expect(try await server.client.send(
            "POST", "/auth/password/reset/confirm", json: ["email": account.email, "code": resetCode, "new_password": password]).status == 204)
        clock.advance(1)
        let last = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": password])
        try #require(last.status == 200, "\(last.text)")
        let signedIn = try last.decode(TokenPair.self)

        let history = try await all(server, signedIn.access)
        #expect(history.map(\.type) == [
            "login_succeeded", "password_reset", "session_ended", "mfa_disabled", "password_changed", "session_ended", "login_failed",
            "session_ended", "recovery_codes_replaced", "passkey_removed", "login_succeeded", "passkey_added", "session_ended",
            "login_failed", "login_succeeded", "recovery_code_used", "login_succeeded", "login_failed", "mfa_enabled", "login_succeeded",
        ], "\(history.map { "\($0.type) \($0.detail ?? [:])" })")
        let detail = history.map { $0.detail ?? [:] }
        #expect(detail[0] == ["method": "password"] && detail[19] == ["method": "password"])
        #expect(detail[2] == ["reason": "logout", "count": "1"])
        #expect(detail[5] == ["reason": "password_changed", "count": "1"], "the enrolment's session")
        #expect(detail[6] == ["check": "password", "via": "password_change"])
        #expect(detail[7] == ["reason": "ended", "count": "1"])
        #expect(detail[9] == ["name": "내 아이폰"] && detail[11] == ["name": "내 아이폰"])
        #expect(detail[10] == ["method": "passkey"])
        #expect(detail[12] == ["reason": "refresh_token_reused", "count": "1"])
        #expect(detail[13] == ["check": "password", "via": "login"])
        #expect(detail[14] == ["method": "recovery_code"] && detail[15] == ["left": "9"])
        #expect(detail[16] == ["method": "totp"] && history[16].deviceName == Self.appDevice)
        #expect(detail[17] == ["check": "second_factor", "via": "mfa_verify"])
        #expect(history.allSatisfy { $0.clientAddress == "127.0.0.1" })
        #expect(history.allSatisfy { $0.deviceName != nil })
        #expect(Set(history.map(\.id)).count == history.count)
        // Refreshing added nothing.
        #expect(afterRefresh.count == 7 && afterRefresh.first?.type == "login_failed")

        // Nothing secret: no password, code, token or factor secret in any event.
        let text = try await server.client.send("GET", "/auth/security-events?limit=100", token: signedIn.access).text
        let secrets = [account.password, newPassword, password, resetCode, app.access, app.refresh, byRecovery.refresh, signedIn.refresh]
            + mina.recoveryCodes + newCodes
        for secret in secrets { #expect(!text.contains(secret), "a secret in the history") }

        // The other account sees its own sign-in and nothing of this one.
        let theirs = try await all(server, other.1.access)
        #expect(theirs.map(\.type) == ["login_succeeded"])
        #expect(Set(theirs.map(\.id)).isDisjoint(with: history.map(\.id)))
        await server.stop()
    }

    @Test func pagesFollowOneAnotherAndACursorNamesNoAccount() async throws {
        let server = try await ServerProcess.start()
        let (account, first) = try await server.verifiedAccount("pages")
        for _ in 0..<21 { _ = try await server.logIn(account) }
        let (_, stranger) = try await server.verifiedAccount("stranger")

        let everything = try await events(server, first.access, "?limit=100")
        #expect(everything.events.count == 22 && everything.next == nil)
        #expect(everything.events.map(\.at) == everything.events.map(\.at).sorted(by: >))
        let byDefault = try await events(server, first.access)
        #expect(byDefault.events == Array(everything.events.prefix(20)))
        let next = try #require(byDefault.next)
        let rest = try await events(server, first.access, "?after=\(next)")
        #expect(rest.events == Array(everything.events.suffix(2)) && rest.next == nil)

        var walked: [SecurityEvent] = []
        var cursor: String?
        repeat {
            let page = try await events(server, first.access, "?limit=3" + (cursor.map { "&after=\($0)" } ?? ""))
            #expect(page.events.count <= 3)
            walked += page.events
            cursor = page.next
        } while cursor != nil
        #expect(walked == everything.events)

        // This account's cursor with another account's token: only that account's own events.
        let theirs = try await events(server, stranger.access, "?after=\(next)")
        #expect(theirs.events.isEmpty || Set(theirs.events.map(\.id)).isDisjoint(with: everything.events.map(\.id)))
        #expect(try await events(server, stranger.access).events.count == 1)

        for query in ["?limit=0", "?limit=101", "?limit=ten", "?after=nonsense", "?after=\(String(repeating: "A", count: 200))"] {
            let reply = try await server.client.send("GET", "/auth/security-events" + query, token: first.access)
            #expect(reply.status == 400 && reply.problem?.code == .invalidRequest, "\(query): \(reply.text)")
        }
        #expect(try await server.client.send("GET", "/auth/security-events").status == 401)
        // Every member, nulls included, as the contract lists them.
        let raw = try await server.client.send("GET", "/auth/security-events?limit=1", token: first.access)
        let members = try #require((raw.object?["events"] as? [[String: Any]])?.first).keys
        #expect(Set(members) == ["id", "at", "type", "client_address", "device_name", "detail"])
        #expect(raw.object?.keys.contains("next") == true)
        await server.stop()
    }
}
