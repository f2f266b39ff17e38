import AccountAPI
import Foundation
import Testing
import TestSupport

/// A registered or taken address looks like an unknown or free one in every reply and every
/// request that follows.
enum EnumerationScenarios {
    static let all = Scenario.set("Enumeration", [
        ("every wrong reset code gets the same reply for a registered and an unknown address, in every code state", resetConfirmReplies),
        ("after a right reset code a refused new password keeps the code, so the owner can choose another", rightCodeWeakPassword),
        ("nickname, cooldowns, limits, logins and codes after a sign-up are the same for a taken and a free address", signUpFollowUps),
        ("the account exists only once its code is verified, and then it is the sign-up's", accountAfterVerification),
        ("a taken address's pending sign-up never becomes an account, and never touches the owner's", strangersPendingSignUp),
        ("a stranger's pending sign-up cannot clear the owner's login back-off", pendingPasswordIsAFailure),
        ("email-first sign-up takes the place of the address's pending sign-up, and respects others' holds", emailFirstAndHolds),
        ("with --allow-unverified-login a free address's account exists at once (the documented trade-off)", unverifiedLoginAllowed),
    ])

    /// New passwords a registered address used to answer differently: fine, too short, too common,
    /// holding the nickname or the address's local part, empty, very long.
    static let newPasswords = ["another good secret", "short", "password123", "dami1234", "xx-dami-xx", "", String(repeating: "가", count: 5000)]

    static let dami = TestAccount(username: "dami", email: "dami@example.com", password: "correct horse battery")
    static let owner = TestAccount(username: "sujin", email: "owner@example.com", password: "violet lantern harbor")

    static func resetConfirmReplies(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(dami)
        server.clock.advance(61)
        let addresses = ["dami@example.com", "ghost@example.com"]
        func confirm(_ email: String, _ code: String, _ password: String) async throws -> String {
            let reply = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": email, "code": code, "new_password": password])
            return reply.observable(exactWaits: server.clock.standsStill)
        }
        // No code requested yet; then a live code (five wrong tries spend it); then expired.
        var mailed = 1
        for state in ["no code", "live code", "spent code", "expired code"] {
            if state == "live code" {
                for email in addresses { #expect(try await server.send("POST", "/auth/password/reset", json: ["email": email]).status == 202) }
                mailed += 1
            }
            if state == "expired code" {
                server.clock.advance(61)
                for email in addresses { #expect(try await server.send("POST", "/auth/password/reset", json: ["email": email]).status == 202) }
                mailed += 1
                server.clock.advance(601)
            }
            let code = try await server.mail.code(to: "dami@example.com", skipping: mailed - 1)
            let wrong = code == "000000" ? "111111" : "000000"
            for password in newPasswords {
                let registered = try await confirm(addresses[0], wrong, password)
                let unknown = try await confirm(addresses[1], wrong, password)
                #expect(registered == unknown, "\(state), new password \(password.prefix(12)): \(registered) / \(unknown)")
                #expect(registered.hasPrefix("400") || registered.hasPrefix("429"), "\(state): \(registered)")
            }
        }
        await server.stop()
    }

    static func rightCodeWeakPassword(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(dami)
        server.clock.advance(61)
        try await server.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        let code = try await server.mail.code(to: "dami@example.com", skipping: 1)
        let similar = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "dami-is-me-1"])
        #expect(similar.status == 422)
        #expect(similar.fieldCodes("new_password") == ["too_similar"])
        let short = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "short"])
        #expect(short.fieldCodes("new_password") == ["too_short"])
        let reset = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "another good secret"])
        #expect(reset.status == 204)
        let again = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "another good secret"])
        #expect(again.code == "code_invalid")
        #expect(try await server.send("POST", "/auth/login", json: ["username": "dami", "password": "another good secret"]).status == 200)
        await server.stop()
    }

    /// One side of a comparison: the address tried and the nickname it signed up with.
    struct Side {
        let email: String
        var nickname: String
        let password = "a stranger's passphrase"
    }

    static func signUpFollowUps(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let exact = server.clock.standsStill
        try await server.signedIn(owner)
        let bystander = TestAccount(username: "bystander", email: "bystander@example.com", password: "correct horse battery")
        var other = try await server.signedIn(bystander)
        var taken = Side(email: "OWNER@example.com", nickname: "takenside")
        var free = Side(email: "free@example.com", nickname: "freeside")
        /// Runs `probe` for the taken and the free side, expects the same observable reply, and
        /// returns the taken side's.
        func same(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ probe: (Side) async throws -> Reply) async throws -> Reply {
            let reply = try await probe(taken)
            let a = reply.observable(exactWaits: exact)
            let b = try await probe(free).observable(exactWaits: exact)
            #expect(a == b, "\(what): taken \(a) / free \(b)", sourceLocation: sourceLocation)
            return reply
        }
        func signUp(_ side: Side, nickname: String? = nil, email: String? = nil) async throws -> Reply {
            try await server.send("POST", "/auth/signup", json: [
                "username": nickname ?? side.nickname, "email": email ?? side.email, "password": side.password,
                "password_confirmation": side.password, "mbti": "intp",
            ])
        }

        var tokens: [String: String] = [:]
        let signedUp = try await same("sign-up") { side in
            let reply = try await signUp(side)
            tokens[side.email] = reply["signup_token"] as? String
            return reply
        }
        #expect(signedUp.observable(exactWaits: exact).hasPrefix("202 - - email,expires_in,signup_token,verification token 43 true"))
        #expect(tokens[taken.email] != nil && tokens[taken.email] != tokens[free.email])
        // Logins with the sign-up's password, by address and by nickname, and with a wrong one.
        let byAddress = try await same("login by address") {
            try await server.send("POST", "/auth/login", json: ["email": $0.email, "password": $0.password])
        }
        #expect(byAddress.status == 403 && byAddress.code == "email_not_verified")
        _ = try await same("login by nickname") {
            try await server.send("POST", "/auth/login", json: ["username": $0.nickname, "password": $0.password])
        }
        _ = try await same("login with another password") {
            try await server.send("POST", "/auth/login", json: ["login": $0.email, "password": "not the password"])
        }
        // The nickname is held, whoever asks for it and how.
        #expect(try await same("nickname in another sign-up") { try await signUp($0, email: "third.\($0.nickname)@example.com") }.status == 409)
        _ = try await same("nickname in a profile change") {
            try await server.send("PATCH", "/auth/me", json: ["username": $0.nickname], token: other.access)
        }
        // Cooldowns and codes.
        #expect(try await same("the same sign-up again") { try await signUp($0, nickname: $0.nickname + "2") }.status == 429)
        _ = try await same("a verify code") {
            try await server.send("POST", "/auth/email/code", json: ["email": $0.email, "purpose": "verify"])
        }
        _ = try await same("a sign-up code") {
            try await server.send("POST", "/auth/email/code", json: ["email": $0.email, "purpose": "signup"])
        }
        _ = try await same("a reset code") {
            try await server.send("POST", "/auth/password/reset", json: ["email": $0.email])
        }
        _ = try await same("a guessed code") {
            try await server.send("POST", "/auth/email/verify", json: ["email": $0.email, "code": "123456"])
        }
        let guessedSigningIn = try await same("a guessed code, signing in with the sign-up's token") {
            try await server.send("POST", "/auth/email/verify", json: [
                "email": $0.email, "code": "123456", "sign_in": true, "signup_token": tokens[$0.email] ?? "",
            ])
        }
        #expect(guessedSigningIn.status == 400 && guessedSigningIn.code == "code_invalid")
        _ = try await same("a guessed reset code") {
            try await server.send("POST", "/auth/password/reset/confirm", json: ["email": $0.email, "code": "123456", "new_password": "a fine new secret"])
        }

        // A minute later both may sign up again; the new nickname is held and the old one free.
        server.clock.advance(61)
        #expect(try await same("a second sign-up") { try await signUp($0, nickname: $0.nickname + "2") }.status == 202)
        #expect(try await same("the first nickname, released") { try await signUp($0, email: "fourth.\($0.nickname)@example.com") }.status == 202)
        taken.nickname += "2"
        free.nickname += "2"
        _ = try await same("the second nickname, held") {
            try await server.send("PATCH", "/auth/me", json: ["username": $0.nickname], token: other.access)
        }
        // A day later the holds have run out: the nicknames are free and the logins plain failures.
        server.clock.advance(24 * 3600)
        other = try await server.logIn(bystander)
        _ = try await same("login after the hold") {
            try await server.send("POST", "/auth/login", json: ["username": $0.nickname, "password": $0.password])
        }
        #expect(try await same("the nickname after the hold") {
            try await server.send("PATCH", "/auth/me", json: ["username": $0.nickname], token: other.access)
        }.status == 200)

        // Only the owner's mailbox knows: notices, never a code.
        #expect(try await server.mail.settledCount(to: "owner@example.com", expected: 2) == 2)
        let toOwner = server.mail.messages(to: "owner@example.com").dropFirst()
        #expect(toOwner.count == 1, "one notice: the first sign-up's fell within the minute of the owner's own code")
        for notice in toOwner {
            #expect(notice.contains("You already have an account"))
            #expect(MailFolder.codes(in: notice).isEmpty)
        }
        await server.stop()
    }

    static func accountAfterVerification(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let body: [String: Any] = ["username": "haneul", "email": "haneul@example.com", "password": "blue sky every day", "mbti": "enfj"]
        #expect(try await server.send("POST", "/auth/signup", json: body).status == 202)
        let pending = try await server.rowCounts()
        #expect(pending["users"] == 0, "no account before the code")
        #expect(pending["pending_signups"] == 1)
        // A verify code for the pending sign-up is mailed once the cooldown allows.
        #expect(try await server.send("POST", "/auth/email/code", json: ["email": "haneul@example.com", "purpose": "verify"]).status == 429)
        server.clock.advance(61)
        #expect(try await server.send("POST", "/auth/email/code", json: ["email": "haneul@example.com", "purpose": "verify"]).status == 202)
        let code = try await server.mail.code(to: "haneul@example.com", skipping: 1)
        #expect(try await server.send("POST", "/auth/email/verify", json: ["email": "haneul@example.com", "code": code]).status == 200)
        #expect(try await server.rowCounts()["pending_signups"] == 0)
        let login = try await server.send("POST", "/auth/login", json: ["username": "haneul", "password": "blue sky every day"])
        #expect(login.status == 200)
        let user = try login.decode(TokenPair.self).user
        #expect(user.emailVerified && user.mbti == .enfj && user.email == "haneul@example.com")
        await server.stop()
    }

    static func strangersPendingSignUp(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(owner)
        server.clock.advance(61)
        let intruder = try await server.send("POST", "/auth/signup", json: [
            "username": "intruder", "email": "owner@example.com", "password": "a stranger's passphrase", "mbti": "istj",
        ])
        #expect(intruder.status == 202)
        // The owner's own code flow (a reset) still works, and completing it leaves one account.
        server.clock.advance(61)
        try await server.send("POST", "/auth/password/reset", json: ["email": "owner@example.com"])
        // The sign-up's code, the notice of the intruder's sign-up, the reset code.
        let code = try await server.mail.code(to: "owner@example.com", skipping: 2)
        let reset = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "owner@example.com", "code": code, "new_password": "amber lantern harbor"])
        #expect(reset.status == 204)
        #expect(try await server.send("POST", "/auth/login", json: ["email": "owner@example.com", "password": "amber lantern harbor"]).status == 200)
        let intruderLogin = try await server.send("POST", "/auth/login", json: ["username": "intruder", "password": "a stranger's passphrase"])
        #expect(intruderLogin.code == "email_not_verified")
        #expect(try await server.rowCounts()["users"] == 1)
        await server.stop()
    }

    static func pendingPasswordIsAFailure(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(owner)
        let intruder = try await server.send("POST", "/auth/signup", json: [
            "username": "intruder", "email": "owner@example.com", "password": "a stranger's passphrase", "mbti": "istj",
        ])
        #expect(intruder.status == 202)
        var codes: [String?] = []
        for index in 0..<6 {
            let password = index.isMultiple(of: 2) ? "a stranger's passphrase" : "guess \(index) guess"
            codes.append(try await server.send("POST", "/auth/login", json: ["email": "owner@example.com", "password": password]).code)
        }
        #expect(codes == ["email_not_verified", "invalid_credentials", "email_not_verified", "invalid_credentials", "email_not_verified", "rate_limited"])
        await server.stop()
    }

    static func emailFirstAndHolds(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let held = try await server.send("POST", "/auth/signup", json: ["username": "heldname", "email": "a@example.com", "password": "purple monkey dishwasher", "mbti": "intj"])
        #expect(held.status == 202)
        let mine = try await server.send("POST", "/auth/signup", json: ["username": "mine", "email": "b@example.com", "password": "purple monkey dishwasher", "mbti": "intj"])
        #expect(mine.status == 202)
        server.clock.advance(61)
        try await server.send("POST", "/auth/email/code", json: ["email": "b@example.com", "purpose": "signup"])
        let code = try await server.mail.code(to: "b@example.com", skipping: 1)
        let verified = try await server.send("POST", "/auth/email/verify", json: ["email": "b@example.com", "code": code])
        let token = try #require(verified["email_verification_token"] as? String)
        var body: [String: Any] = ["username": "heldname", "email": "b@example.com", "password": "purple monkey dishwasher", "mbti": "intj", "email_verification_token": token]
        #expect(try await server.send("POST", "/auth/signup", json: body).code == "username_taken")
        // The refused try rolled back, token and all.
        body["username"] = "mine"
        #expect(try await server.send("POST", "/auth/signup", json: body).status == 201)
        #expect(try await server.rowCounts()["pending_signups"] == 1, "b's pending sign-up is gone, a's stays")
        await server.stop()
    }

    static func unverifiedLoginAllowed(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(["--allow-unverified-login"])
        let quick = try await server.send("POST", "/auth/signup", json: ["username": "quick", "email": "quick@example.com", "password": "purple monkey dishwasher", "mbti": "intj"])
        #expect(quick.status == 202)
        let login = try await server.send("POST", "/auth/login", json: ["username": "quick", "password": "purple monkey dishwasher"])
        #expect(login.status == 200)
        #expect(try login.decode(TokenPair.self).user.emailVerified == false)
        // A taken address still only holds the nickname.
        server.clock.advance(61)
        let copycat = try await server.send("POST", "/auth/signup", json: ["username": "copycat", "email": "quick@example.com", "password": "another fine password", "mbti": "intj"])
        #expect(copycat.status == 202)
        let elsewhere = try await server.send("POST", "/auth/signup", json: ["username": "copycat", "email": "z@example.com", "password": "another fine password", "mbti": "intj"])
        #expect(elsewhere.code == "username_taken")
        #expect(try await server.rowCounts()["users"] == 1)
        await server.stop()
    }
}
