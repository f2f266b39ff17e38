import AccountAPI
import Foundation
import TestSupport
import Testing

/// Authenticator codes (RFC 6238) and recovery codes against the real binary, with codes from the
/// tests' own RFC 6238 implementation and the server's clock moved through `--clock-file`.
@Suite struct SecondFactorTests {
    func start() async throws -> (ServerProcess, TestClock) {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        return (try await ServerProcess.start(in: folder, clock: clock), clock)
    }

    func me(_ server: ServerProcess, _ token: String) async throws -> User {
        let reply = try await server.me(token)
        guard reply.status == 200 else { throw TestFailure("me: \(reply.text)") }
        return try reply.decode(User.self)
    }

    @Test func enrolConfirmLogInWithEachFactorAndKeepAmrThroughRefresh() async throws {
        let (server, clock) = try await start()
        var secrets: [String: String] = [:]
        let (account, pair) = try await server.verifiedAccount("mfa")
        #expect(try await me(server, pair.access).mfa == SecondFactorStatus(totp: false, recoveryCodesLeft: 0))
        #expect(try amr(pair.access) == ["pwd"])

        // Enrolment needs the password; a wrong one changes nothing.
        let wrong = try await server.client.send("POST", "/auth/mfa/totp", json: ["password": "not the password"], token: pair.access)
        #expect(wrong.status == 403 && wrong.problem?.code == .invalidCredentials, "\(wrong.text)")
        let first = try await server.client.send("POST", "/auth/mfa/totp", json: ["password": account.password], token: pair.access)
        #expect(first.status == 200, "\(first.text)")
        let firstEnrolment = try first.decode(TOTPEnrollment.self)
        // A second call replaces the unconfirmed secret.
        let enrolment = try await server.client.send("POST", "/auth/mfa/totp", json: ["password": account.password], token: pair.access)
            .decode(TOTPEnrollment.self)
        #expect(enrolment.secret != firstEnrolment.secret)
        secrets["first secret"] = firstEnrolment.secret
        secrets["secret"] = enrolment.secret
        secrets["otpauth uri"] = enrolment.otpauthURI
        let secret = try #require(TOTPGenerator.base32Decode(enrolment.secret))
        #expect(secret.count == 20 && enrolment.secret.count == 32 && !enrolment.secret.contains("="))
        let uri = try #require(URLComponents(string: enrolment.otpauthURI))
        #expect(uri.scheme == "otpauth" && uri.host == "totp")
        #expect(uri.path == "/MBTI Playground:\(account.username)")
        let query = Dictionary(uniqueKeysWithValues: (uri.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query == ["secret": enrolment.secret, "issuer": "MBTI Playground", "algorithm": "SHA1", "digits": "6", "period": "30"])

        // Until it is confirmed, logins need only the password.
        let other = try await server.logIn(account)
        #expect(try await me(server, pair.access).mfa?.totp == false)
        var now = clock.nextStep()
        let oldSecret = try #require(TOTPGenerator.base32Decode(firstEnrolment.secret))
        let replaced = try await server.client.send("POST", "/auth/mfa/totp/confirm", json: ["code": TOTPGenerator.code(secret: oldSecret, at: now)], token: pair.access)
        #expect(replaced.status == 400 && replaced.problem?.code == .codeInvalid, "the replaced secret's code: \(replaced.text)")
        let code = TOTPGenerator.code(secret: secret, at: now)
        secrets["confirm code"] = code
        let confirmed = try await server.client.send("POST", "/auth/mfa/totp/confirm", json: ["code": code], token: pair.access)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        let recovery = try confirmed.decode(RecoveryCodes.self).recoveryCodes
        #expect(recovery.count == 10 && Set(recovery).count == 10)
        for (index, code) in recovery.enumerated() { secrets["recovery code \(index)"] = code }
        #expect(try await me(server, pair.access).mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
        #expect(try await server.me(other.access).problem?.code == .sessionRevoked, "every other session ends")
        let again = try await server.client.send("POST", "/auth/mfa/totp", json: ["password": account.password], token: pair.access)
        #expect(again.status == 409 && again.problem?.code == .mfaAlreadyEnabled)
        let notice = try await Self.mail(to: account.email, containing: "Two-step verification is on", in: server)
        #expect(!notice.contains(enrolment.secret))

        // A wrong password is the usual 401, with no challenge.
        let badLogin = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong password!"])
        #expect(badLogin.status == 401 && badLogin.problem?.code == .invalidCredentials && badLogin.object?["mfa_token"] == nil)

        // The right one: 403 mfa_required with a token and the methods.
        let challenge = try await server.challenge(account)
        let token = try #require(challenge.mfaToken)
        secrets["mfa token"] = token
        #expect(challenge.methods == [.totp, .recoveryCode])
        now = clock.nextStep()
        let loginCode = TOTPGenerator.code(secret: secret, at: now)
        secrets["login code"] = loginCode
        let verified = try await server.answer(token, code: loginCode)
        #expect(verified.status == 200, "\(verified.text)")
        let otpPair = try verified.decode(TokenPair.self)
        #expect(try amr(otpPair.access) == ["pwd", "otp"])
        #expect(otpPair.user.mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
        #expect(try await server.answer(token, code: loginCode).problem?.code == .codeInvalid, "a token is single use")

        // The same code again, on a new login in the same step: a replay.
        let replay = try await server.answer(try await server.challenge(account).mfaToken, code: loginCode)
        #expect(replay.status == 400 && replay.problem?.code == .codeInvalid, "\(replay.text)")

        // Refresh keeps the session's amr.
        let refreshed = try await server.refresh(otpPair.refresh).decode(TokenPair.self)
        #expect(try amr(refreshed.access) == ["pwd", "otp"])

        // A recovery code: once, with a notice that says how many are left.
        let byRecovery = try await server.answer(try await server.challenge(account).mfaToken, recoveryCode: recovery[3].uppercased())
        #expect(byRecovery.status == 200, "\(byRecovery.text)")
        let recoveryPair = try byRecovery.decode(TokenPair.self)
        #expect(try amr(recoveryPair.access) == ["pwd", "recovery_code"])
        #expect(try amr(try await server.refresh(recoveryPair.refresh).decode(TokenPair.self).access) == ["pwd", "recovery_code"])
        #expect(recoveryPair.user.mfa?.recoveryCodesLeft == 9)
        #expect(try await me(server, recoveryPair.access).mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 9))
        let used = try await server.answer(try await server.challenge(account).mfaToken, recoveryCode: recovery[3])
        #expect(used.problem?.code == .codeInvalid, "a recovery code works once: \(used.text)")
        let left = try await Self.mail(to: account.email, containing: "A recovery code was used", in: server)
        #expect(left.contains("9 codes are left"), "\(left)")
        #expect(!left.contains(recovery[3]))

        await server.stop()
        let logs = server.logs
        #expect(logs.contains("\"mfa_required\"") && logs.contains("\"mfa_enabled\"") && logs.contains("\"recovery_code_used\""))
        for (name, secret) in secrets {
            #expect(!logs.contains(secret), "the \(name) appears in the server's output")
        }
        #expect(!logs.lowercased().contains(enrolment.secret.lowercased()))
        #expect(!logs.contains(recovery[0].replacingOccurrences(of: "-", with: "")))
    }

    @Test func oneStepOfSkewEitherSideAndNoStepTwice() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("skew")
        // Two steps after the confirmation's, so the step behind is one no code was used in.
        clock.nextStep()
        let now = clock.nextStep()
        let step: TimeInterval = 30
        func login(_ at: Date) async throws -> Reply {
            try await server.answer(try await server.challenge(mfa.account).mfaToken, code: mfa.code(at: at))
        }
        #expect(try await login(now.addingTimeInterval(-2 * step)).problem?.code == .codeInvalid, "two steps behind")
        #expect(try await login(now.addingTimeInterval(2 * step)).problem?.code == .codeInvalid, "two steps ahead")
        #expect(try await login(now.addingTimeInterval(-step)).status == 200, "one step behind")
        #expect(try await login(now.addingTimeInterval(-step)).problem?.code == .codeInvalid, "used once")
        #expect(try await login(now).status == 200, "the current step")
        #expect(try await login(now.addingTimeInterval(step)).status == 200, "one step ahead")
        #expect(try await login(now).problem?.code == .codeInvalid, "an earlier step after a later one")
        // When the clock reaches the step used ahead, its code stays used; the next one works.
        let later = clock.nextStep()
        #expect(try await login(later).problem?.code == .codeInvalid, "the step already used ahead")
        #expect(try await login(later.addingTimeInterval(step)).status == 200)
        await server.stop()
    }

    @Test func theTokenIsSpentAfterFiveWrongCodesOrFiveMinutesAndWrongCodesBackTheAccountOff() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("spent")
        let now = clock.nextStep()
        let right = mfa.code(at: now)
        let wrongCode = right == "000000" ? "111111" : "000000"
        let token = try await server.challenge(mfa.account).mfaToken
        for attempt in 1...5 {
            let reply = try await server.answer(token, code: wrongCode)
            #expect(reply.status == 400 && reply.problem?.code == .codeInvalid, "try \(attempt): \(reply.text)")
        }
        let spent = try await server.answer(token, code: right)
        #expect(spent.status == 429 && spent.problem?.code == .tooManyAttempts, "\(spent.text)")
        // Five wrong codes are five failures of the account's login back-off.
        let backedOff = try await server.client.send("POST", "/auth/login", json: ["username": mfa.account.username, "password": mfa.account.password])
        #expect(backedOff.status == 429 && backedOff.problem?.code == .rateLimited && backedOff.header("Retry-After") != nil, "\(backedOff.text)")

        // After the back-off: a token unanswered for five minutes is expired.
        clock.advance(31)
        let late = try await server.challenge(mfa.account).mfaToken
        clock.advance(301)
        let expired = try await server.answer(late, code: mfa.code(at: clock.nextStep()))
        #expect(expired.status == 400 && expired.problem?.code == .codeExpired, "\(expired.text)")
        let fresh = try await server.challenge(mfa.account).mfaToken
        #expect(try await server.answer(fresh, code: mfa.code(at: clock.serverNow)).status == 200, "the expired token's code was never used")
        await server.stop()
    }

    @Test func wrongPasswordsAndWrongCodesShareTheBackoff() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("shared")
        for index in 0..<4 {
            #expect(try await server.client.send("POST", "/auth/login", json: ["username": mfa.account.username, "password": "wrong \(index) pw"]).status == 401)
        }
        // A right password does not clear the streak before the second factor is given…
        let token = try await server.challenge(mfa.account).mfaToken
        let now = clock.nextStep()
        let wrongCode = mfa.code(at: now) == "000000" ? "111111" : "000000"
        // …and one wrong code is the fifth failure.
        #expect(try await server.answer(token, code: wrongCode).problem?.code == .codeInvalid)
        let refused = try await server.answer(token, code: mfa.code(at: now))
        #expect(refused.status == 429 && refused.problem?.code == .rateLimited, "\(refused.text)")
        clock.advance(31)
        let verified = try await server.answer(token, code: mfa.code(at: clock.nextStep()))
        #expect(verified.status == 200, "\(verified.text)")
        // A success clears the streak: a wrong password is an ordinary 401 again.
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": mfa.account.username, "password": "wrong again"]).status == 401)
        #expect(try await server.challenge(mfa.account).mfaToken?.isEmpty == false)
        await server.stop()
    }

    @Test func regenerateStepUpAndDisable() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("stepup")
        let access = mfa.pair.access

        // New recovery codes: password and an authenticator code; the old set stops working.
        var now = clock.nextStep()
        let noCode = try await server.client.send("POST", "/auth/mfa/recovery-codes", json: ["password": mfa.account.password], token: access)
        #expect(noCode.status == 422 && noCode.problem?.errors?["code"]?.first?.code == .required)
        let badPassword = try await server.client.send("POST", "/auth/mfa/recovery-codes", json: ["password": "nope nope", "code": mfa.code(at: now)], token: access)
        #expect(badPassword.status == 403 && badPassword.problem?.code == .invalidCredentials)
        let renewed = try await server.client.send("POST", "/auth/mfa/recovery-codes", model: RecoveryCodesRequest(password: mfa.account.password, code: mfa.code(at: now)), token: access)
        #expect(renewed.status == 200, "\(renewed.text)")
        let codes = try renewed.decode(RecoveryCodes.self).recoveryCodes
        #expect(codes.count == 10 && Set(codes).isDisjoint(with: mfa.recoveryCodes))
        #expect(try await server.answer(try await server.challenge(mfa.account).mfaToken, recoveryCode: mfa.recoveryCodes[0]).problem?.code == .codeInvalid)
        _ = try await Self.mail(to: mfa.account.email, containing: "New recovery codes", in: server)

        // Password change: needs a code now; a missing or wrong one changes nothing.
        let newPassword = "Changed-\(UUID().uuidString)"
        let change = ["current_password": mfa.account.password, "new_password": newPassword]
        let missing = try await server.client.send("POST", "/auth/password/change", json: change, token: access)
        #expect(missing.status == 422 && missing.problem?.errors?["code"]?.first?.code == .required, "\(missing.text)")
        now = clock.nextStep()
        let wrongCode = mfa.code(at: now) == "000000" ? "111111" : "000000"
        let wrong = try await server.client.send("POST", "/auth/password/change", json: change.merging(["code": wrongCode]) { $1 }, token: access)
        #expect(wrong.status == 400 && wrong.problem?.code == .codeInvalid, "\(wrong.text)")
        let both = try await server.client.send("POST", "/auth/password/change", json: change.merging(["code": mfa.code(at: now), "recovery_code": codes[0]]) { $1 }, token: access)
        #expect(both.status == 400 && both.problem?.code == .invalidRequest)
        #expect(try await server.challenge(mfa.account).mfaToken != nil, "the old password still opens the login")
        let changed = try await server.client.send("POST", "/auth/password/change", json: change.merging(["code": mfa.code(at: now)]) { $1 }, token: access)
        #expect(changed.status == 204, "\(changed.text)")
        let renamed = TestAccount(username: mfa.account.username, email: mfa.account.email, password: newPassword)
        #expect(try await server.challenge(renamed).mfaToken != nil)

        // Turning it off: password and a code or recovery code.
        let offWithout = try await server.client.send("DELETE", "/auth/mfa/totp", json: ["password": newPassword], token: access)
        #expect(offWithout.status == 422, "\(offWithout.text)")
        let offWrong = try await server.client.send("DELETE", "/auth/mfa/totp", json: ["password": newPassword, "recovery_code": "aaaaa-bbbbb"], token: access)
        #expect(offWrong.status == 400 && offWrong.problem?.code == .codeInvalid, "\(offWrong.text)")
        #expect(try await me(server, access).mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
        let other = try await server.answer(try await server.challenge(renamed).mfaToken, code: mfa.code(at: clock.nextStep()))
        let otherPair = try other.decode(TokenPair.self)
        let off = try await server.client.send("DELETE", "/auth/mfa/totp", model: TOTPDisableRequest(password: newPassword, recoveryCode: codes[1]), token: access)
        #expect(off.status == 204, "\(off.text)")
        #expect(try await me(server, access).mfa == SecondFactorStatus(totp: false, recoveryCodesLeft: 0))
        #expect(try await server.me(otherPair.access).problem?.code == .sessionRevoked)
        let plain = try await server.logIn(renamed)
        #expect(try amr(plain.access) == ["pwd"])
        _ = try await Self.mail(to: mfa.account.email, containing: "Two-step verification is off", in: server)
        let offAgain = try await server.client.send("DELETE", "/auth/mfa/totp", json: ["password": newPassword, "code": "123456"], token: access)
        #expect(offAgain.status == 409 && offAgain.problem?.code == .mfaNotEnabled)
        await server.stop()
    }

    @Test func deletingAnAccountWithASecondFactorNeedsACode() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("delete")
        let withoutCode = try await server.client.send("DELETE", "/auth/me", json: ["password": mfa.account.password], token: mfa.pair.access)
        #expect(withoutCode.status == 422 && withoutCode.problem?.errors?["code"]?.first?.code == .required, "\(withoutCode.text)")
        let wrongRecovery = try await server.client.send("DELETE", "/auth/me", json: ["password": mfa.account.password, "recovery_code": "zzzzz-zzzzz"], token: mfa.pair.access)
        #expect(wrongRecovery.status == 400 && wrongRecovery.problem?.code == .codeInvalid)
        #expect(try await server.me(mfa.pair.access).status == 200, "nothing was deleted")
        let deleted = try await server.client.send(
            "DELETE", "/auth/me", json: ["password": mfa.account.password, "code": mfa.code(at: clock.nextStep())], token: mfa.pair.access)
        #expect(deleted.status == 204, "\(deleted.text)")
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": mfa.account.username, "password": mfa.account.password]).status == 401)
        await server.stop()
    }

    @Test func wrongInputsGetClearProblems() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("inputs")
        let token = try await server.challenge(mfa.account).mfaToken
        let code = mfa.code(at: clock.nextStep())
        let noToken = try await server.answer(nil, code: code)
        #expect(noToken.status == 422 && noToken.problem?.errors?["mfa_token"]?.first?.code == .required)
        let noFactor = try await server.answer(token)
        #expect(noFactor.status == 422 && noFactor.problem?.errors?["code"]?.first?.code == .required)
        #expect(try await server.answer(token, code: code, recoveryCode: mfa.recoveryCodes[0]).problem?.code == .invalidRequest)
        let short = try await server.answer(token, code: "12345")
        #expect(short.status == 422 && short.problem?.errors?["code"]?.first?.code == .invalidFormat)
        let badRecovery = try await server.answer(token, recoveryCode: "not a code")
        #expect(badRecovery.status == 422 && badRecovery.problem?.errors?["recovery_code"]?.first?.code == .invalidFormat)
        #expect(try await server.answer("made-up-token", code: code).problem?.code == .codeInvalid)
        #expect(try await server.client.send("POST", "/auth/mfa/verify", json: ["mfa_token": 5, "code": code]).problem?.code == .invalidRequest)
        // Enrolling again while the factor is on is a conflict, before any proof is asked for.
        #expect(try await server.client.send("POST", "/auth/mfa/totp", json: [:] as [String: String], token: mfa.pair.access).status == 409)
        #expect(try await server.client.send("POST", "/auth/mfa/totp", json: ["password": "x"]).status == 401)
        // None of that spent the token or the code.
        #expect(try await server.answer(token, code: code).status == 200)
        await server.stop()
    }

    /// The newest message to `address` whose text contains `text`, waiting for delivery.
    static func mail(to address: String, containing text: String, in server: ServerProcess) async throws -> String {
        for _ in 0..<100 {
            if let found = server.mail.messages(to: address).last(where: { $0.contains(text) }) { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("no message to \(address) with \"\(text)\"; got:\n\(server.mail.messages(to: address).joined(separator: "\n---\n"))")
    }
}
