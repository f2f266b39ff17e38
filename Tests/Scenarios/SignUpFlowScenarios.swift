import AccountAPI
import Foundation
import Testing
import TestSupport

/// Both sign-up flows of docs/API.md, the codes read from the mail the server sent.
enum SignUpFlowScenarios {
    static let all = Scenario.set("Sign-up flows", [
        ("details first: 202, code mailed, login refused until verified, then signed in; a new nickname logs in", detailsFirst),
        ("email first: code, verify, sign-up with the token is verified and signed in at once", emailFirst),
        ("a verification token only works for its own address", tokenBoundToAddress),
        ("a taken address answers like a free one, and its owner gets a notice without a code", takenAddressIsNotRevealed),
        ("nicknames are unique ignoring case and width; reserved ones are taken", usernameUniqueness),
        ("invalid fields answer 422 with every field's errors and change nothing", validation),
    ])

    static func detailsFirst(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let signup = try await server.send("POST", "/auth/signup", json: [
            "username": "김민수", "email": " Minsu@Example.com ", "password": "correct horse battery",
            "password_confirmation": "correct horse battery", "mbti": "enfp",
        ])
        #expect(signup.status == 202)
        #expect(signup["verification"] as? String == "code_sent")
        #expect(signup["expires_in"] as? Int == 600)
        #expect(signup["email"] as? String == "Minsu@Example.com")
        #expect((signup["signup_token"] as? String)?.count == 43, "the sign-up's token, for signing in at verification")

        let early = try await server.send("POST", "/auth/login", json: ["username": "김민수", "password": "correct horse battery"])
        #expect(early.status == 403)
        #expect(early.code == "email_not_verified")
        let wrong = try await server.send("POST", "/auth/login", json: ["username": "김민수", "password": "wrong horse battery"])
        #expect(wrong.status == 401, "a wrong password must not reveal the unverified state")

        let code = try await server.mail.code(to: "Minsu@Example.com")
        let verify = try await server.send("POST", "/auth/email/verify", json: ["email": "minsu@example.com", "code": code])
        #expect(verify.status == 200)
        #expect(verify["verified"] as? Bool == true)
        #expect(verify["email"] as? String == "minsu@example.com")
        #expect((verify["email_verification_token"] as? String)?.isEmpty == false)

        let login = try await server.send("POST", "/auth/login", json: ["email": "MINSU@example.com", "password": "correct horse battery"])
        #expect(login.status == 200)
        let pair = try login.decode(TokenPair.self)
        #expect(pair.tokenType == "Bearer")
        #expect(pair.expiresIn == 900)
        #expect(pair.user.username == "김민수")
        #expect(pair.user.mbti == .enfp)
        #expect(pair.user.emailVerified)

        let me = try await server.me(pair.access)
        #expect(me.status == 200)
        #expect(me["username"] as? String == "김민수")
        #expect(me["mbti"] as? String == "ENFP")
        let user = try me.decode(User.self)
        #expect(user == pair.user)

        let patch = try await server.send("PATCH", "/auth/me", json: ["username": "renamed_minsu", "mbti": "istj"], token: pair.access)
        #expect(patch.status == 200, "\(patch.text)")
        let updated = try patch.decode(User.self)
        #expect(updated.username == "renamed_minsu" && updated.mbti == .istj && updated.id == user.id)
        #expect(try await server.me(pair.access).decode(User.self) == updated)
        // The new nickname logs in; the old one no longer does.
        let byNewName = try await server.send("POST", "/auth/login", json: ["username": "renamed_minsu", "password": "correct horse battery"])
        #expect(byNewName.status == 200)
        let byOldName = try await server.send("POST", "/auth/login", json: ["username": "김민수", "password": "correct horse battery"])
        #expect(byOldName.status == 401 && byOldName.problem?.code == .invalidCredentials)
        await server.stop()
    }

    static func emailFirst(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let sent = try await server.send("POST", "/auth/email/code", json: ["email": "jiwoo@example.com", "purpose": "signup"])
        #expect(sent.status == 202)
        #expect(sent["expires_in"] as? Int == 600)
        #expect(try sent.decode(EmailCodeSent.self) == EmailCodeSent(email: "jiwoo@example.com", expiresIn: 600))
        let code = try await server.mail.code(to: "jiwoo@example.com")
        let verified = try await server.send("POST", "/auth/email/verify", json: ["email": "jiwoo@example.com", "code": code])
        #expect(verified.status == 200)
        let token = try #require(verified["email_verification_token"] as? String)

        let body: [String: Any] = [
            "username": "jiwoo", "email": "jiwoo@example.com", "password": "purple monkey dishwasher", "mbti": "INTJ",
            "email_verification_token": token,
        ]
        let signup = try await server.send("POST", "/auth/signup", json: body)
        #expect(signup.status == 201)
        let pair = try signup.decode(TokenPair.self)
        #expect(pair.user.emailVerified && pair.user.username == "jiwoo" && pair.user.mbti == .intj)
        let me = try await server.me(pair.access)
        #expect(me.status == 200)
        #expect(try me.decode(User.self) == pair.user)

        // The token is single use: a second sign-up with it fails even with another name.
        var again = body
        again["username"] = "jiwoo2"
        let reuse = try await server.send("POST", "/auth/signup", json: again)
        #expect(reuse.status == 400)
        #expect(reuse.code == "code_invalid")
        await server.stop()
    }

    static func tokenBoundToAddress(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.send("POST", "/auth/email/code", json: ["email": "a1@example.com", "purpose": "signup"])
        let code = try await server.mail.code(to: "a1@example.com")
        let verified = try await server.send("POST", "/auth/email/verify", json: ["email": "a1@example.com", "code": code])
        let token = try #require(verified["email_verification_token"] as? String)
        let other = try await server.send("POST", "/auth/signup", json: [
            "username": "other", "email": "b2@example.com", "password": "purple monkey dishwasher", "mbti": "INTJ", "email_verification_token": token,
        ])
        #expect(other.status == 400)
        #expect(try await server.rowCounts()["users"] == 0)
        await server.stop()
    }

    static func takenAddressIsNotRevealed(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.registered(TestAccount(username: "sujin", email: "owner@example.com", password: "correct horse battery"))
        // One message a minute per address: the sign-up's code went out just now.
        server.clock.advance(61)
        let before = await server.mail.delivered().count
        let again = try await server.send("POST", "/auth/signup", json: [
            "username": "intruder", "email": "OWNER@example.com", "password": "another fine password", "mbti": "istj",
        ])
        #expect(again.status == 202)
        #expect(Set(again.json.keys) == ["email", "verification", "expires_in", "signup_token"])
        #expect(try await server.rowCounts()["users"] == 1, "no second account")
        #expect(try await server.mail.settledCount(to: "owner@example.com", expected: before + 1) == before + 1)
        let notice = try #require(server.mail.messages().last)
        #expect(MailFolder.codes(in: notice).isEmpty)

        let code = try await server.send("POST", "/auth/email/code", json: ["email": "owner@example.com", "purpose": "signup"])
        #expect(code.status == 202)
        #expect(Set(code.json.keys) == ["email", "expires_in"])
        await server.stop()
    }

    static func usernameUniqueness(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.registered(TestAccount(username: "Mina", email: "mina@example.com", password: "correct horse battery"))
        for name in ["mina", "MINA", "Ｍｉｎａ"] {
            let reply = try await server.send("POST", "/auth/signup", json: [
                "username": name, "email": "\(UUID().uuidString.prefix(8))@example.com", "password": "another fine password", "mbti": "istj",
            ])
            #expect(reply.status == 409, "\(name)")
            #expect(reply.code == "username_taken")
        }
        let reserved = try await server.send("POST", "/auth/signup", json: [
            "username": "Admin", "email": "x@example.com", "password": "another fine password", "mbti": "istj",
        ])
        #expect(reserved.status == 422)
        #expect(reserved.fieldCodes("username") == ["taken"])
        await server.stop()
    }

    static func validation(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let before = try await server.rowCounts()
        let reply = try await server.send("POST", "/auth/signup", json: [
            "username": "1", "email": "not-an-email", "password": "short", "password_confirmation": "other", "mbti": "ABCD",
        ], headers: ["Accept-Language": "ko-KR,ko;q=0.9"])
        #expect(reply.status == 422)
        #expect(reply.code == "validation_failed")
        #expect(reply.header("Content-Type") == "application/problem+json")
        #expect(!reply.fieldCodes("username").isEmpty)
        #expect(reply.fieldCodes("email") == ["invalid_format"])
        #expect(reply.fieldCodes("password") == ["too_short"])
        #expect(reply.fieldCodes("password_confirmation") == ["mismatch"])
        #expect(reply.fieldCodes("mbti") == ["invalid_choice"])
        let missing = try await server.send("POST", "/auth/signup", json: [String: Any]())
        #expect(Set(["username", "email", "password", "mbti"]).allSatisfy { missing.fieldCodes($0) == ["required"] })
        let common = try await server.send("POST", "/auth/signup", json: ["username": "sora", "email": "sora@example.com", "password": "password123", "mbti": "isfp"])
        #expect(common.fieldCodes("password").contains("too_common"))
        let similar = try await server.send("POST", "/auth/signup", json: ["username": "sora", "email": "sora@example.com", "password": "i-am-sora-really", "mbti": "isfp"])
        #expect(similar.fieldCodes("password") == ["too_similar"])
        #expect(try await server.rowCounts() == before)
        #expect(before.values.allSatisfy { $0 == 0 })
        await server.stop()
    }
}
