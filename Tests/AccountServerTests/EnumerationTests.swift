import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// What a client can compare between two replies: status, problem code, `Retry-After`, and the
/// body's field names (or the whole body for a problem, whose texts are fixed), and the shape of a
/// sign-up's `signup_token` (its length and alphabet; its value differs for every sign-up).
func observable(_ reply: Reply) -> String {
    let shape = reply.code != nil ? reply.text : reply.json.keys.sorted().joined(separator: ",")
    let token = (reply["signup_token"] as? String).map { token in
        "token \(token.count) \(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })"
    } ?? "-"
    return "\(reply.status) \(reply.header("Retry-After") ?? "-") \(reply.header("WWW-Authenticate") ?? "-") \(shape) \(token)"
}

@Suite("Password reset confirmation tells no address from another")
struct ResetConfirmEnumerationTests {
    /// New passwords a registered address used to answer differently: fine, too short, too common,
    /// holding the nickname or the address's local part, empty, very long.
    static let newPasswords = ["another good secret", "short", "password123", "dami1234", "xx-dami-xx", "", String(repeating: "가", count: 5000)]

    @Test("every wrong-code input gets the same reply for a registered and an unknown address, in every code state")
    func sameReplies() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("dami", email: "dami@example.com", password: "correct horse battery")
        harness.clock.advance(61)
        let addresses = ["dami@example.com", "ghost@example.com"]
        func confirm(_ email: String, _ code: String, _ password: String) async throws -> String {
            observable(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": email, "code": code, "new_password": password]))
        }
        // No code requested yet; then a live code (five wrong tries spend it); then expired.
        for state in ["no code", "live code", "spent code", "expired code"] {
            if state == "live code" {
                for email in addresses { #expect(try await harness.send("POST", "/auth/password/reset", json: ["email": email]).status == 202) }
            }
            if state == "expired code" {
                harness.clock.advance(61)
                for email in addresses { #expect(try await harness.send("POST", "/auth/password/reset", json: ["email": email]).status == 202) }
                harness.clock.advance(601)
            }
            let code = try await harness.latestCode(to: "dami@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            for password in Self.newPasswords {
                let registered = try await confirm(addresses[0], wrong, password)
                let unknown = try await confirm(addresses[1], wrong, password)
                #expect(registered == unknown, "\(state), new password \(password.prefix(12)): \(registered) / \(unknown)")
                #expect(registered.hasPrefix("400") || registered.hasPrefix("429"), "\(state): \(registered)")
            }
        }
    }

    /// dami@example.com's account, a minute after its sign-up, with a reset code mailed.
    static func accountWithResetCode() async throws -> (Harness, String) {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("dami", email: "dami@example.com", password: "correct horse battery")
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        guard let code = try await harness.latestCode(to: "dami@example.com") else { throw TestFailure("no reset code") }
        return (harness, code)
    }

    @Test("no password is checked or hashed before a right code")
    func noHashBeforeTheCode() async throws {
        let (harness, code) = try await Self.accountWithResetCode()
        let wrong = code == "000000" ? "111111" : "000000"
        let before = harness.app.services.passwords.runs.value
        for password in ["another good secret", "dami1234"] {
            for email in ["dami@example.com", "ghost@example.com"] {
                try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": email, "code": wrong, "new_password": password])
            }
        }
        #expect(harness.app.services.passwords.runs.value == before, "wrong codes cost no Argon2id run")
        // The wrong tries spent the code; a new one, then the right code hashes once.
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        let fresh = try #require(try await harness.latestCode(to: "dami@example.com"))
        let right = harness.app.services.passwords.runs.value
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": fresh, "new_password": "another good secret"]).status == 204)
        #expect(harness.app.services.passwords.runs.value == right + 1)
    }

    @Test("after a right code a refused new password keeps the code, so the owner can choose another")
    func rightCodeWeakPassword() async throws {
        let (harness, code) = try await Self.accountWithResetCode()
        let similar = try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "dami-is-me-1"])
        #expect(similar.status == 422)
        #expect(similar.fieldCodes("new_password") == ["too_similar"])
        let short = try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "short"])
        #expect(short.fieldCodes("new_password") == ["too_short"])
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "another good secret"]).status == 204)
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "another good secret"]).code == "code_invalid")
        #expect(try await harness.send("POST", "/auth/login", json: ["username": "dami", "password": "another good secret"]).status == 200)
    }
}

@Suite("Sign-up tells no taken address from a free one, by any later request")
struct SignUpEnumerationTests {
    /// One side of a comparison: the address tried and the nickname it signed up with.
    struct Side {
        let email: String
        var nickname: String
        let password = "a stranger's passphrase"
    }

    /// Runs `probe` for the taken and the free side and expects the same observable reply.
    func same(_ what: String, _ taken: Side, _ free: Side, sourceLocation: SourceLocation = #_sourceLocation, _ probe: (Side) async throws -> Reply) async throws -> String {
        let a = observable(try await probe(taken))
        let b = observable(try await probe(free))
        #expect(a == b, "\(what): taken \(a) / free \(b)", sourceLocation: sourceLocation)
        return a
    }

    func signUp(_ harness: Harness, _ side: Side, nickname: String? = nil, email: String? = nil) async throws -> Reply {
        try await harness.send("POST", "/auth/signup", json: [
            "username": nickname ?? side.nickname, "email": email ?? side.email, "password": side.password,
            "password_confirmation": side.password, "mbti": "intp",
        ])
    }

    @Test("nickname, cooldowns, limits, logins and codes after a sign-up are the same for a taken and a free address")
    func followUps() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "owner@example.com", password: "violet lantern harbor")
        var other = try await harness.signedInUser("bystander", email: "bystander@example.com", password: "correct horse battery").decode(TokenPair.self)
        var taken = Side(email: "OWNER@example.com", nickname: "takenside")
        var free = Side(email: "free@example.com", nickname: "freeside")

        var tokens: [String: String] = [:]
        #expect(try await same("sign-up", taken, free) { side in
            let reply = try await signUp(harness, side)
            tokens[side.email] = reply["signup_token"] as? String
            return reply
        }.hasPrefix("202 - - email,expires_in,signup_token,verification token 43 true"))
        #expect(tokens[taken.email] != tokens[free.email])
        // Logins with the sign-up's password, by address and by nickname, and with a wrong one.
        #expect(try await same("login by address", taken, free) {
            try await harness.send("POST", "/auth/login", json: ["email": $0.email, "password": $0.password])
        }.hasPrefix("403"))
        _ = try await same("login by nickname", taken, free) {
            try await harness.send("POST", "/auth/login", json: ["username": $0.nickname, "password": $0.password])
        }
        _ = try await same("login with another password", taken, free) {
            try await harness.send("POST", "/auth/login", json: ["login": $0.email, "password": "not the password"])
        }
        // The nickname is held, whoever asks for it and how.
        #expect(try await same("nickname in another sign-up", taken, free) {
            try await signUp(harness, $0, email: "third.\($0.nickname)@example.com")
        }.hasPrefix("409"))
        _ = try await same("nickname in a profile change", taken, free) {
            try await harness.send("PATCH", "/auth/me", json: ["username": $0.nickname], token: other.access)
        }
        // Cooldowns and codes.
        #expect(try await same("the same sign-up again", taken, free) { try await signUp(harness, $0, nickname: $0.nickname + "2") }.hasPrefix("429"))
        _ = try await same("a verify code", taken, free) {
            try await harness.send("POST", "/auth/email/code", json: ["email": $0.email, "purpose": "verify"])
        }
        _ = try await same("a sign-up code", taken, free) {
            try await harness.send("POST", "/auth/email/code", json: ["email": $0.email, "purpose": "signup"])
        }
        _ = try await same("a reset code", taken, free) {
            try await harness.send("POST", "/auth/password/reset", json: ["email": $0.email])
        }
        _ = try await same("a guessed code", taken, free) {
            try await harness.send("POST", "/auth/email/verify", json: ["email": $0.email, "code": "123456"])
        }
        #expect(try await same("a guessed code, signing in with the sign-up's token", taken, free) {
            try await harness.send("POST", "/auth/email/verify", json: [
                "email": $0.email, "code": "123456", "sign_in": true, "signup_token": tokens[$0.email] ?? "",
            ])
        }.hasPrefix("400"))
        _ = try await same("a guessed reset code", taken, free) {
            try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": $0.email, "code": "123456", "new_password": "a fine new secret"])
        }

        // A minute later both may sign up again; the new nickname is held and the old one free.
        harness.clock.advance(61)
        #expect(try await same("a second sign-up", taken, free) { try await signUp(harness, $0, nickname: $0.nickname + "2") }.hasPrefix("202"))
        #expect(try await same("the first nickname, released", taken, free) {
            try await signUp(harness, $0, email: "fourth.\($0.nickname)@example.com")
        }.hasPrefix("202"))
        taken.nickname += "2"
        free.nickname += "2"
        _ = try await same("the second nickname, held", taken, free) {
            try await harness.send("PATCH", "/auth/me", json: ["username": $0.nickname], token: other.access)
        }
        // A day later the holds have run out: the nicknames are free and the logins plain failures.
        harness.clock.advance(24 * 3600)
        other = try await harness.send("POST", "/auth/login", json: ["username": "bystander", "password": "correct horse battery"]).decode(TokenPair.self)
        _ = try await same("login after the hold", taken, free) {
            try await harness.send("POST", "/auth/login", json: ["username": $0.nickname, "password": $0.password])
        }
        #expect(try await same("the nickname after the hold", taken, free) {
            try await harness.send("PATCH", "/auth/me", json: ["username": $0.nickname], token: other.access)
        }.hasPrefix("200"))

        // Only the owner's mailbox knows: notices, never a code.
        let toOwner = await harness.mail.delivered(to: "owner@example.com").dropFirst()
        #expect(toOwner.count == 1, "one notice: the first sign-up's fell within the minute of the owner's own code")
        for notice in toOwner {
            #expect(notice.contains("You already have an account"))
            #expect(MailFolder.codes(in: notice).isEmpty)
        }
    }

    @Test("the account exists only once its code is verified, and then it is the sign-up's")
    func accountAfterVerification() async throws {
        let harness = try await Harness.make()
        let body: [String: Any] = ["username": "haneul", "email": "haneul@example.com", "password": "blue sky every day", "mbti": "enfj"]
        #expect(try await harness.send("POST", "/auth/signup", json: body).status == 202)
        #expect(try await harness.counts()[0] == 0, "no account before the code")
        #expect(try await harness.rowCounts()["pending_signups"] == 1)
        // A verify code for the pending sign-up is mailed once the cooldown allows.
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": "haneul@example.com", "purpose": "verify"]).status == 429)
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": "haneul@example.com", "purpose": "verify"]).status == 202)
        let code = try #require(try await harness.latestCode(to: "haneul@example.com"))
        #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "haneul@example.com", "code": code]).status == 200)
        #expect(try await harness.rowCounts()["pending_signups"] == 0)
        let login = try await harness.send("POST", "/auth/login", json: ["username": "haneul", "password": "blue sky every day"])
        #expect(login.status == 200)
        let user = try login.decode(TokenPair.self).user
        #expect(user.emailVerified && user.mbti == .enfj && user.email == "haneul@example.com")
    }

    @Test("a taken address's pending sign-up never becomes an account, and never touches the owner's")
    func strangersPendingSignUp() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "owner@example.com", password: "violet lantern harbor")
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "intruder", "email": "owner@example.com", "password": "a stranger's passphrase", "mbti": "istj"]).status == 202)
        // The owner's own code flow (a reset) still works, and completing it leaves one account.
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "owner@example.com"])
        let code = try #require(try await harness.latestCode(to: "owner@example.com"))
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "owner@example.com", "code": code, "new_password": "amber lantern harbor"]).status == 204)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": "owner@example.com", "password": "amber lantern harbor"]).status == 200)
        #expect(try await harness.send("POST", "/auth/login", json: ["username": "intruder", "password": "a stranger's passphrase"]).code == "email_not_verified")
        #expect(try await harness.counts()[0] == 1)
    }

    @Test("a stranger's pending sign-up cannot clear the owner's login back-off")
    func pendingPasswordIsAFailure() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "owner@example.com", password: "violet lantern harbor")
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "intruder", "email": "owner@example.com", "password": "a stranger's passphrase", "mbti": "istj"]).status == 202)
        var codes: [String?] = []
        for index in 0..<6 {
            let password = index.isMultiple(of: 2) ? "a stranger's passphrase" : "guess \(index) guess"
            codes.append(try await harness.send("POST", "/auth/login", json: ["email": "owner@example.com", "password": password]).code)
        }
        #expect(codes == ["email_not_verified", "invalid_credentials", "email_not_verified", "invalid_credentials", "email_not_verified", "rate_limited"])
    }

    @Test("email-first sign-up takes the place of the address's pending sign-up, and respects others' holds")
    func emailFirstAndHolds() async throws {
        let harness = try await Harness.make()
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "heldname", "email": "a@example.com", "password": "purple monkey dishwasher", "mbti": "intj"]).status == 202)
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "mine", "email": "b@example.com", "password": "purple monkey dishwasher", "mbti": "intj"]).status == 202)
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/email/code", json: ["email": "b@example.com", "purpose": "signup"])
        let code = try #require(try await harness.latestCode(to: "b@example.com"))
        let token = try #require(try await harness.send("POST", "/auth/email/verify", json: ["email": "b@example.com", "code": code])["email_verification_token"] as? String)
        var body: [String: Any] = ["username": "heldname", "email": "b@example.com", "password": "purple monkey dishwasher", "mbti": "intj", "email_verification_token": token]
        #expect(try await harness.send("POST", "/auth/signup", json: body).code == "username_taken")
        // The refused try rolled back, token and all.
        body["username"] = "mine"
        #expect(try await harness.send("POST", "/auth/signup", json: body).status == 201)
        #expect(try await harness.rowCounts()["pending_signups"] == 1, "b's pending sign-up is gone, a's stays")
    }

    @Test("with --allow-unverified-login a free address's account exists at once (the documented trade-off)")
    func unverifiedLoginAllowed() async throws {
        let harness = try await Harness.make { $0.allowUnverifiedLogin = true }
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "quick", "email": "quick@example.com", "password": "purple monkey dishwasher", "mbti": "intj"]).status == 202)
        let login = try await harness.send("POST", "/auth/login", json: ["username": "quick", "password": "purple monkey dishwasher"])
        #expect(login.status == 200)
        #expect(try login.decode(TokenPair.self).user.emailVerified == false)
        // A taken address still only holds the nickname.
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "copycat", "email": "quick@example.com", "password": "another fine password", "mbti": "intj"]).status == 202)
        #expect(try await harness.send("POST", "/auth/signup", json: ["username": "copycat", "email": "z@example.com", "password": "another fine password", "mbti": "intj"]).code == "username_taken")
        #expect(try await harness.counts()[0] == 1)
    }
}
