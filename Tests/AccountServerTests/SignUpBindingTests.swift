import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Pre-hijacking (Sudhodanan & Paverd, 2022) through a newer sign-up: after the owner of an
/// address signs up, a stranger signs the same address up with a password of their own. The
/// owner's code must not make the stranger's account, let alone sign the owner's device in to it:
/// the `signup_token` of the 202 reply binds the code to the sign-up it came from, and without it
/// a sign-up that replaced another client's (contested) completes nothing.
@Suite("A newer sign-up of an address cannot sign in the device of the one it replaced")
struct SignUpBindingTests {
    static let address = "dahye@example.com"
    static let ownerPassword = "owner horse battery"
    static let strangerPassword = "stranger horse battery"
    /// The owner's client (`User-Agent`, address) and a stranger's.
    static let owner = (agent: "DahyeApp/1.0", address: "192.0.2.10")
    static let stranger = (agent: "Stranger/6.6", address: "198.51.100.7")

    /// A details-first sign-up from `client` (the owner's by default); returns its reply (202).
    @discardableResult
    static func signUp(
        _ harness: Harness, _ username: String, _ email: String = address, password: String,
        from client: (agent: String, address: String) = owner
    ) async throws -> Reply {
        let body = try JSONSerialization.data(withJSONObject: [
            "username": username, "email": email, "password": password, "password_confirmation": password, "mbti": "isfp",
        ])
        let headers: HTTPHeaders = ["Content-Type": "application/json", "User-Agent": client.agent]
        let request = HTTPRequest(method: "POST", path: "/auth/signup", query: [:], headers: headers, body: [UInt8](body), remoteAddress: client.address)
        let reply = Reply(response: await harness.app.handle(request))
        try #require(reply.status == 202, "\(reply.text)")
        return reply
    }

    static func token(_ reply: Reply) throws -> String {
        try #require(reply["signup_token"] as? String, "\(reply.text)")
    }

    static func verify(_ harness: Harness, _ code: String, signIn: Bool = true, token: String?) async throws -> Reply {
        var body: [String: Any] = ["email": address, "code": code]
        if signIn { body["sign_in"] = true }
        if let token { body["signup_token"] = token }
        return try await harness.send("POST", "/auth/email/verify", json: body)
    }

    /// What a client can see of a token: its length and alphabet (base64url, no padding).
    static func shape(_ token: String?) -> String {
        guard let token else { return "none" }
        let alphabet = token.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        return "\(token.count) \(alphabet ? "base64url" : "other")"
    }

    /// The owner's sign-up, then a stranger's of the same address a minute later (past the
    /// address's code cooldown and mail budget) from `strangerClient` (another User-Agent and
    /// address by default): `(harness, owner's token, stranger's token)`.
    static func replacedSignUp(
        strangerClient: (agent: String, address: String) = stranger
    ) async throws -> (Harness, String, String) {
        let harness = try await Harness.make()
        let ownersReply = try await signUp(harness, "다혜", password: ownerPassword)
        harness.clock.advance(61)
        let strangersReply = try await signUp(harness, "낯선손님", password: strangerPassword, from: strangerClient)
        return (harness, try token(ownersReply), try token(strangersReply))
    }

    /// Nothing was made and nothing is pending: no account, session, proof or pending sign-up,
    /// and neither password logs in.
    static func expectNothingMade(_ harness: Harness) async throws {
        let rows = try await harness.rowCounts()
        #expect(rows["users"] == 0 && rows["sessions"] == 0 && rows["pending_signups"] == 0, "\(rows)")
        #expect(rows["verification_tokens"] == 0, "no proof of the address is handed out: \(rows)")
        #expect(harness.app.metrics.logins(.signUpVerified) == 0)
        for password in [strangerPassword, ownerPassword] {
            let login = try await harness.send("POST", "/auth/login", json: ["email": address, "password": password])
            #expect(login.status == 401, "\(login.text)")
        }
    }

    @Test("the owner's code with the owner's token, after a stranger's newer sign-up: refused, nothing made, nothing opened")
    func ownersCodeIsRefused() async throws {
        let (harness, ownerToken, strangerToken) = try await Self.replacedSignUp()
        #expect(ownerToken != strangerToken, "each sign-up has its own token")
        #expect(Self.shape(ownerToken) == "43 base64url" && Self.shape(strangerToken) == "43 base64url")
        // The newest mail is the stranger's sign-up's: it names the stranger's nickname.
        let mail = try #require(try await harness.mails().last { $0.contains("To: \(Self.address)") })
        #expect(mail.contains("as “\u{2068}낯선손님\u{2069}”"), "\(mail)")
        let code = try #require(try await harness.latestCode(to: Self.address))

        let refused = try await Self.verify(harness, code, token: ownerToken)
        #expect(refused.status == 409 && refused.code == "signup_superseded", "\(refused.text)")
        #expect(refused["detail"] as? String == "This sign-up was replaced by a newer one for this address; sign up again.")
        #expect(refused["email_verification_token"] == nil && refused["session"] == nil)
        let rows = try await harness.rowCounts()
        #expect(rows["users"] == 0 && rows["sessions"] == 0, "\(rows)")
        #expect(rows["pending_signups"] == 0, "the stranger's sign-up is dropped")
        #expect(rows["verification_tokens"] == 0, "no proof of the address is handed out")
        #expect(harness.app.metrics.logins(.signUpVerified) == 0)

        // The code is spent: the same request without sign_in (or a retry) makes nothing either.
        let again = try await Self.verify(harness, code, signIn: false, token: nil)
        #expect(again.status == 400 && again.code == "code_invalid", "\(again.text)")
        #expect(try await harness.counts()[0] == 0)
        for password in [Self.strangerPassword, Self.ownerPassword] {
            let login = try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": password])
            #expect(login.status == 401, "\(login.text)")
        }
        // Nothing is pending, so nobody can have a new code for it.
        harness.clock.advance(61)
        let mailed = try await harness.mails().count
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"]).status == 202)
        #expect(try await harness.mails().count == mailed, "no code for a dropped sign-up")
    }

    @Test("the owner signs up again and is signed in, with the owner's nickname and password")
    func ownerSignsUpAgain() async throws {
        let (harness, ownerToken, _) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, token: ownerToken).code == "signup_superseded")

        // No code is live, so no cooldown holds the sign-up back (the mail waits for the address's
        // one-message-a-minute budget: the stranger's code went out a moment ago).
        let now = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        #expect(now.status == 202)
        harness.clock.advance(61)
        let resent = try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"])
        #expect(resent.status == 202, "\(resent.text)")
        let fresh = try #require(try await harness.latestCode(to: Self.address))
        #expect(fresh != code)
        let mail = try #require(try await harness.mails().last { $0.contains("To: \(Self.address)") })
        #expect(mail.contains("as “\u{2068}다혜\u{2069}”"), "the resent code names the owner's nickname")

        let verified = try await Self.verify(harness, fresh, token: try Self.token(now))
        #expect(verified.status == 200, "\(verified.text)")
        let pair = try #require(try verified.decode(EmailVerified.self).session)
        #expect(pair.user.username == "다혜" && pair.user.mbti == .isfp)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.ownerPassword]).status == 200)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.strangerPassword]).status == 401)
    }

    @Test("the stranger's token never gets a code: guesses are code_invalid, then the code is spent, and every code goes to the address")
    func strangersTokenGetsNoCode() async throws {
        let (harness, _, strangerToken) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        let wrong = code == "000000" ? "111111" : "000000"
        var replies: [Reply] = []
        for _ in 0..<5 { replies.append(try await Self.verify(harness, wrong, token: strangerToken)) }
        #expect(replies.prefix(4).allSatisfy { $0.code == "code_invalid" }, "\(replies.map(\.text))")
        #expect(replies[4].code == "too_many_attempts")
        #expect(!replies.contains { $0.text.contains(code) })
        #expect(try await harness.rowCounts()["users"] == 0)
        // A new code for the stranger's sign-up goes to the address, as every code did.
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"]).status == 202)
        let recipients = try await harness.mails().compactMap { mail in
            mail.split(separator: "\r\n").first { $0.hasPrefix("To: ") }.map(String.init)
        }
        #expect(Set(recipients) == ["To: \(Self.address)"], "\(recipients)")
    }

    @Test("a sign-up alone: the code with sign_in and no token signs in, as the plain contract says")
    func aloneSignsInWithoutToken() async throws {
        let harness = try await Harness.make()
        try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: nil)
        #expect(verified.status == 200, "\(verified.text)")
        let pair = try #require(try verified.decode(EmailVerified.self).session)
        #expect(pair.user.username == "다혜")
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).status == 200)
        #expect(harness.app.metrics.logins(.signUpVerified) == 1)
    }

    @Test("a malformed token is a field error and the code is not tried; a made-up one makes nothing")
    func malformedOrMadeUpToken() async throws {
        let harness = try await Harness.make()
        let reply = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        let code = try #require(try await harness.latestCode(to: Self.address))
        for malformed in ["", "short", String(repeating: "A", count: 42) + "=", String(repeating: "é", count: 43)] {
            for signIn in [true, false] {
                let refused = try await Self.verify(harness, code, signIn: signIn, token: malformed)
                #expect(refused.status == 422 && refused.fieldCodes("signup_token") == ["invalid_format"], "\(refused.text)")
            }
        }
        // Nothing was tried or dropped: the same code with the token signs in.
        #expect(try await harness.rowCounts()["pending_signups"] == 1)
        let verified = try await Self.verify(harness, code, token: try Self.token(reply))
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")

        // A made-up token of the right shape names no sign-up: the right code makes nothing.
        let other = try await Harness.make()
        let signedUp = try await Self.signUp(other, "다혜", password: Self.ownerPassword)
        let second = try #require(try await other.latestCode(to: Self.address))
        let real = try Self.token(signedUp)
        let madeUp = String(real.reversed())
        #expect(Self.shape(madeUp) == "43 base64url" && madeUp != real)
        #expect(try await Self.verify(other, second, token: madeUp).code == "signup_superseded")
        #expect(try await other.counts()[0] == 0 && other.app.metrics.logins(.signUpVerified) == 0)
    }

    @Test("a token of one address's sign-up, sent with another address's code, is refused")
    func tokenOfAnotherAddress() async throws {
        let harness = try await Harness.make()
        let mine = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        try await Self.signUp(harness, "낯선손님", "victim@example.com", password: Self.strangerPassword)
        let victimsCode = try #require(try await harness.latestCode(to: "victim@example.com"))
        let reply = try await harness.send("POST", "/auth/email/verify", json: [
            "email": "victim@example.com", "code": victimsCode, "sign_in": true, "signup_token": try Self.token(mine),
        ])
        #expect(reply.status == 409 && reply.code == "signup_superseded", "\(reply.text)")
        let rows = try await harness.rowCounts()
        #expect(rows["users"] == 0 && rows["sessions"] == 0 && rows["pending_signups"] == 1, "only the victim's is dropped: \(rows)")
        // The token's own sign-up is untouched: its code and token sign in.
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: try Self.token(mine))
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")
    }

    @Test("a token sent without sign_in is checked as well; the right one verifies without a session")
    func tokenWithoutSignIn() async throws {
        let (harness, ownerToken, strangerToken) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, signIn: false, token: ownerToken).code == "signup_superseded")

        let other = try await Harness.make()
        let reply = try await Self.signUp(other, "다혜", password: Self.ownerPassword)
        let own = try #require(try await other.latestCode(to: Self.address))
        let verified = try await Self.verify(other, own, signIn: false, token: try Self.token(reply))
        #expect(verified.status == 200 && verified["session"] == nil, "\(verified.text)")
        #expect(try await other.rowCounts()["users"] == 1)
        #expect(strangerToken != ownerToken)
    }

    @Test("a token still names its sign-up after the code is mailed again")
    func tokenOutlivesAResentCode() async throws {
        let harness = try await Harness.make()
        let reply = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"])
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: try Self.token(reply))
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")
    }

    @Test("a stranger's sign-up over the owner's is contested: the owner's code without a token makes nothing", arguments: [true, false])
    func contestedWithoutToken(signIn: Bool) async throws {
        let (harness, _, _) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        let refused = try await Self.verify(harness, code, signIn: signIn, token: nil)
        #expect(refused.status == 409 && refused.code == "signup_superseded", "\(refused.text)")
        #expect(refused["email_verification_token"] == nil && refused["session"] == nil)
        try await Self.expectNothingMade(harness)
        // The owner signs up again, now alone: the plain request completes it.
        let again = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"]).status == 202)
        let fresh = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, fresh, signIn: signIn, token: nil)
        #expect(verified.status == 200 && (verified["session"] != nil) == signIn, "\(verified.text)")
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.ownerPassword]).status == 200)
        #expect(try Self.token(again).count == 43)
    }

    @Test("another User-Agent alone, or another address alone, is another client", arguments: ["agent", "address"])
    func anotherClientByEitherPart(_ part: String) async throws {
        let client = part == "agent" ? (agent: Self.stranger.agent, address: Self.owner.address) : (agent: Self.owner.agent, address: Self.stranger.address)
        let (harness, _, _) = try await Self.replacedSignUp(strangerClient: client)
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, token: nil).code == "signup_superseded")
        try await Self.expectNothingMade(harness)
    }

    @Test("a contested sign-up completes with its own token, and signs in when asked")
    func contestedWithItsToken() async throws {
        let (harness, _, strangerToken) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: strangerToken)
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.strangerPassword]).status == 200)
    }

    @Test("a client's own retry is not contested: the code without a token completes the newest sign-up")
    func ownRetryIsNotContested() async throws {
        let (harness, first, second) = try await Self.replacedSignUp(strangerClient: Self.owner)
        #expect(first != second)
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: nil)
        #expect(verified.status == 200, "\(verified.text)")
        let pair = try #require(try verified.decode(EmailVerified.self).session)
        #expect(pair.user.username == "낯선손님", "the retry's details are the ones made")
    }

    @Test("contested stays contested: the stranger's own retry over a contested sign-up still needs its token")
    func contestedStaysContested() async throws {
        let (harness, _, _) = try await Self.replacedSignUp()
        harness.clock.advance(61)
        let retry = try await Self.signUp(harness, "낯선손님", password: Self.strangerPassword, from: Self.stranger)
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, signIn: false, token: nil).code == "signup_superseded")
        try await Self.expectNothingMade(harness)

        // The same again, completed with the retry's token this time.
        let (other, _, _) = try await Self.replacedSignUp()
        other.clock.advance(61)
        let retried = try await Self.signUp(other, "낯선손님", password: Self.strangerPassword, from: Self.stranger)
        let otherCode = try #require(try await other.latestCode(to: Self.address))
        #expect(try await Self.verify(other, otherCode, signIn: false, token: try Self.token(retried)).status == 200)
        #expect(try Self.token(retry).count == 43)
    }

    @Test("a sign-up kept from before clients were recorded counts as another client's")
    func replacingAnUnrecordedSignUpIsContested() async throws {
        let harness = try await Harness.make()
        try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        // As an upgraded database holds it: no client (the column added by migration is NULL).
        try await harness.store.write { tx in
            var row = try #require(try tx.pendingSignUp(emailKey: Self.address))
            #expect(row.client?.count == 16 && !row.contested, "a 16-byte fingerprint, uncontested")
            row.client = nil
            try tx.upsertPendingSignUp(row)
        }
        harness.clock.advance(61)
        try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, token: nil).code == "signup_superseded")
        try await Self.expectNothingMade(harness)
    }

    @Test("a hold that ran out but whose code still lives counts: replacing it is contested")
    func replacingARunOutHoldIsContested() async throws {
        let harness = try await Harness.make { $0.signUpHold = 120 }
        try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        harness.clock.advance(121)
        try await Self.signUp(harness, "낯선손님", password: Self.strangerPassword, from: Self.stranger)
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, token: nil).code == "signup_superseded")
        try await Self.expectNothingMade(harness)
    }

    @Test("wrong codes and the sign-up's reply are the same for a contested sign-up and one alone")
    func contestedIsNotObservable() async throws {
        // The stranger's sign-up over the owner's (contested), and the same sign-up with nothing
        // to replace (alone), at the same moments.
        let contested = try await Harness.make()
        try await Self.signUp(contested, "다혜", password: Self.ownerPassword)
        let alone = try await Harness.make()
        try await Self.signUp(alone, "다혜", "other@example.com", password: Self.ownerPassword)
        var seen: [[String]] = []
        for harness in [contested, alone] {
            harness.clock.advance(61)
            let reply = try await Self.signUp(harness, "낯선손님", password: Self.strangerPassword, from: Self.stranger)
            var replies = [reply.observable()]
            let code = try #require(try await harness.latestCode(to: Self.address))
            let wrong = code == "000000" ? "111111" : "000000"
            for (signIn, token) in [(true, nil), (false, nil), (true, String(repeating: "A", count: 43))] as [(Bool, String?)] {
                replies.append(try await Self.verify(harness, wrong, signIn: signIn, token: token).observable())
            }
            seen.append(replies)
        }
        #expect(seen[0] == seen[1], "\(seen)")
        #expect(seen[0].dropFirst().allSatisfy { $0.contains("code_invalid") }, "\(seen)")
        // Only the right code tells them apart.
        let contestedCode = try #require(try await contested.latestCode(to: Self.address))
        let aloneCode = try #require(try await alone.latestCode(to: Self.address))
        #expect(try await Self.verify(contested, contestedCode, token: nil).code == "signup_superseded")
        #expect(try await Self.verify(alone, aloneCode, token: nil).status == 200)
    }

    @Test("a free and a taken address get the same reply, with a token of the same shape")
    func sameShapeForTakenAndFree() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "주인", email: "taken@example.com", password: "violet lantern harbor"))
        harness.clock.advance(61)
        let taken = try await Self.signUp(harness, "빌린이름", "TAKEN@example.com", password: Self.strangerPassword)
        let free = try await Self.signUp(harness, "새이름", "free@example.com", password: Self.strangerPassword)
        #expect(taken.observable() == free.observable())
        #expect(Set(taken.json.keys) == ["email", "verification", "expires_in", "signup_token"])
        #expect(Self.shape(try Self.token(taken)) == Self.shape(try Self.token(free)))
        #expect(try Self.token(taken) != (try Self.token(free)))
    }
}
