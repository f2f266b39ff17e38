import AccountAPI
import Foundation
import LibCrypto
import TestSupport
import Testing

/// Sign in with Apple against the real binary and a local stand-in for Apple's endpoints
/// (``AppleStandIn``: its JWKS, token and revoke endpoints, checking the client secret as Apple does).
/// One test at a time: each starts a server and a stand-in, and Apple's keys must come back within 5 s.
@Suite(.serialized) struct AppleSignInTests {
    @Test func aNewAppleUserChoosesANicknameOnceAndLogsInWithApple() async throws {
        let context = try await AppleServer.start()
        let (server, apple) = (context.server, context.apple)
        let (sub, email) = AppleServer.newUser()
        let (code, appleRefresh) = apple.authorizationCode()
        let (token, nonce) = context.token(sub: sub, email: email)

        let first = try await context.signIn(token, nonce: nonce, code: code)
        #expect(first.status == 403, "\(first.text)")
        let problem = try #require(first.problem)
        #expect(problem.code == .profileRequired && problem.email == email && problem.expiresIn == 600)
        let continuation = try #require(problem.continuationToken)
        #expect(apple.exchanged == [code], "the authorization code was exchanged with a client secret Apple accepts: \(apple.refusals)")

        // The nickname is checked as at sign-up, and a taken one leaves the continuation usable.
        let (taken, _) = try await server.verifiedAccount("taken")
        #expect(try await context.complete(continuation, username: "a").problem?.errors?["username"] != nil)
        #expect(try await context.complete(continuation, username: "mina_\(sub.suffix(6))", mbti: "ABCD").problem?.errors?["mbti"] != nil)
        #expect(try await context.complete(continuation, username: taken.username).problem?.code == .usernameTaken)
        let nickname = "mina_\(UUID().uuidString.prefix(6).lowercased())"
        let done = try await context.complete(continuation, username: nickname)
        #expect(done.status == 201, "\(done.text)")
        let pair = try done.decode(TokenPair.self)
        #expect(pair.user.username == nickname && pair.user.email == email && pair.user.emailVerified)
        #expect(pair.user.appleLinked == true && pair.user.hasPassword == false && pair.user.mbti == .intj)
        #expect(try amr(pair.access) == ["apple"])
        let me = try await server.me(pair.access).decode(User.self)
        #expect(me.appleLinked == true && me.hasPassword == false)

        // Single use.
        #expect(try await context.complete(continuation, username: nickname + "2").problem?.code == .codeInvalid)

        // Apple again: the same account, signed in.
        let (again, againNonce) = context.token(sub: sub, email: email)
        let login = try await context.signIn(again, nonce: againNonce)
        #expect(login.status == 200, "\(login.text)")
        let second = try login.decode(TokenPair.self)
        #expect(second.user.id == pair.user.id)
        #expect(try amr(second.access) == ["apple"])

        // No password: a password login is refused like any wrong one.
        let byPassword = try await server.client.send("POST", "/auth/login", model: LoginRequest(username: nickname, password: "anything-at-all-1"))
        #expect(byPassword.status == 401 && byPassword.problem?.code == .invalidCredentials)
        let empty = try await server.client.send("POST", "/auth/login", json: ["username": nickname, "password": ""])
        #expect(empty.status == 422)

        await context.stop()
        let logs = server.logs
        #expect(logs.contains("\"apple_profile_required\"") && logs.contains("\"via\":\"apple\""))
        #expect(!logs.contains(token) && !logs.contains(continuation) && !logs.contains(appleRefresh) && !logs.contains(code))
    }

    @Test func everyBrokenTokenIsRefusedWithoutSayingWhy() async throws {
        let context = try await AppleServer.start()
        let (sub, email) = AppleServer.newUser()
        let other = RSASigningKey.generate()
        typealias Spoil = (String, (inout AppleStandIn.Claims) -> Void)
        let spoils: [Spoil] = [
            ("aud", { $0.aud = "com.example.stranger" }),
            ("iss", { $0.iss = "https://appleid.apple.com.evil" }),
            ("exp", { $0.issuedAt = $0.issuedAt.addingTimeInterval(-3600) }),
            ("iat", { $0.issuedAt = $0.issuedAt.addingTimeInterval(600) }),
            ("nonce", { $0.nonce = AppleStandIn.hashedNonce("another nonce") }),
            ("nonce", { $0.nonce = nil }),
            ("email_verified", { $0.emailVerified = false }),
            ("email_verified", { $0.emailVerified = "false" }),
        ]
        for (reason, spoil) in spoils {
            let (token, nonce) = context.token(sub: sub, email: email, spoil: spoil)
            let reply = try await context.signIn(token, nonce: nonce)
            #expect(reply.status == 401 && reply.problem?.code == .appleTokenInvalid, "\(reason): \(reply.status) \(reply.text)")
        }
        // A token signed by a key that is not Apple's, under Apple's kid.
        let nonce = UUID().uuidString
        let claims = AppleStandIn.claims(sub: sub, email: email, nonce: nonce, now: context.clock.serverNow)
        let forged = context.apple.identityToken(claims, kid: "apple-key-1", signingKey: other)
        #expect(try await context.signIn(forged, nonce: nonce).problem?.code == .appleTokenInvalid)
        // A signature taken from another token.
        let genuine = context.apple.identityToken(claims)
        let otherClaims = AppleStandIn.claims(sub: sub + "x", email: email, nonce: nonce, now: context.clock.serverNow)
        let spliced = context.apple.identityToken(otherClaims).split(separator: ".").prefix(2).joined(separator: ".") + "." + genuine.split(separator: ".")[2]
        #expect(try await context.signIn(spliced, nonce: nonce).problem?.code == .appleTokenInvalid)
        // alg none and HS256.
        for alg in ["none", "HS256"] {
            let token = context.apple.identityToken(claims, header: ["alg": alg, "kid": "apple-key-1"])
            #expect(try await context.signIn(token, nonce: nonce).problem?.code == .appleTokenInvalid, "\(alg)")
        }
        // Too large, and not a token at all.
        #expect(try await context.signIn(String(repeating: "a", count: 9000), nonce: nonce).problem?.code == .appleTokenInvalid)
        #expect(try await context.signIn("not.a.token", nonce: nonce).problem?.code == .appleTokenInvalid)
        // Missing fields are field errors.
        let missing = try await context.server.client.send("POST", "/auth/apple", json: ["identity_token": genuine])
        #expect(missing.status == 422 && missing.problem?.errors?["nonce"] != nil)

        // Apple's older string form of email_verified, and the genuine token, are accepted.
        let (stringly, stringNonce) = context.token(sub: sub, email: email) { $0.emailVerified = "true" }
        #expect(try await context.signIn(stringly, nonce: stringNonce).problem?.code == .profileRequired)
        let (other2, otherNonce) = context.token(sub: sub, email: email) { $0.aud = AppleStandIn.otherClientID }
        #expect(try await context.signIn(other2, nonce: otherNonce).problem?.code == .profileRequired, "every --apple-client-id is an audience")

        await context.stop()
        let logs = context.server.logs
        for reason in ["aud", "iss", "exp", "iat", "nonce", "email_verified", "signature", "algorithm", "too_large", "malformed"] {
            #expect(logs.contains("\"reason\":\"\(reason)\""), "no apple_token_refused with reason \(reason)")
        }
        #expect(!logs.contains(genuine))
    }

    @Test func anUnknownKeyIsAskedForAtMostOnceInAWhileAndARotationWorks() async throws {
        let context = try await AppleServer.start()
        let apple = context.apple
        let (sub, email) = AppleServer.newUser()
        let (token, nonce) = context.token(sub: sub, email: email)
        #expect(try await context.signIn(token, nonce: nonce).problem?.code == .profileRequired)
        #expect(apple.jwksFetches == 1)

        // Tokens naming keys Apple never had: refused, and Apple is not asked again for each.
        for _ in 0..<6 {
            let nonce = UUID().uuidString
            let forged = apple.identityToken(AppleStandIn.claims(sub: sub, email: email, nonce: nonce, now: context.clock.serverNow), kid: "kid-\(UUID())")
            #expect(try await context.signIn(forged, nonce: nonce).problem?.code == .appleTokenInvalid)
        }
        #expect(apple.jwksFetches == 1, "random kids made the server ask Apple \(apple.jwksFetches - 1) more times")

        // Apple rotates its keys: after the interval, a token under the new key makes one fetch and passes.
        let newKid = apple.rotateKeys(retire: true)
        context.clock.advance(11)
        let (rotated, rotatedNonce) = context.token(sub: sub, email: email)
        #expect(try accessHeaderKid(rotated) == newKid)
        #expect(try await context.signIn(rotated, nonce: rotatedNonce).problem?.code == .profileRequired)
        #expect(apple.jwksFetches == 2)
        // The retired key is gone from the fetched set.
        let nonce2 = UUID().uuidString
        let old = apple.identityToken(AppleStandIn.claims(sub: sub, email: email, nonce: nonce2, now: context.clock.serverNow), kid: "apple-key-1")
        #expect(try await context.signIn(old, nonce: nonce2).problem?.code == .appleTokenInvalid)
        await context.stop()
        #expect(context.server.logs.contains("\"reason\":\"unknown_kid\""))
    }

    @Test func aContinuationExpiresAfterTenMinutes() async throws {
        let context = try await AppleServer.start()
        let (sub, email) = AppleServer.newUser()
        let (token, nonce) = context.token(sub: sub, email: email)
        let continuation = try #require(try await context.signIn(token, nonce: nonce).problem?.continuationToken)
        context.clock.advance(601)
        #expect(try await context.complete(continuation, username: "late_\(UUID().uuidString.prefix(6).lowercased())").problem?.code == .codeExpired)
        #expect(try await context.complete(continuation, username: "late_\(UUID().uuidString.prefix(6).lowercased())").problem?.code == .codeInvalid)
        #expect(try await context.complete("made-up", username: "late_\(UUID().uuidString.prefix(6).lowercased())").problem?.code == .codeInvalid)
        await context.stop()
    }

    @Test func anAddressWithAnAccountIsLinkedOnlyFromItsSession() async throws {
        let context = try await AppleServer.start()
        let (server, apple) = (context.server, context.apple)
        let (account, pair) = try await server.verifiedAccount("linker")
        let sub = AppleServer.newUser().sub

        // Apple's user has the account's address: nothing is linked silently.
        let (token, nonce) = context.token(sub: sub, email: account.email)
        let refused = try await context.signIn(token, nonce: nonce)
        #expect(refused.status == 409 && refused.problem?.code == .appleLinkRequired, "\(refused.text)")
        #expect(try await server.me(pair.access).decode(User.self).appleLinked == false)

        // Linked from the session (with a code, so the grant can be revoked).
        let (code, appleRefresh) = apple.authorizationCode()
        let (linkToken, linkNonce) = context.token(sub: sub, email: account.email)
        let linked = try await server.client.send(
            "POST", "/auth/apple/link", json: ["identity_token": linkToken, "nonce": linkNonce, "authorization_code": code, "password": account.password],
            token: pair.access)
        #expect(linked.status == 200, "\(linked.text)")
        #expect(try linked.decode(User.self).appleLinked == true)
        #expect(try linked.decode(User.self).hasPassword == true)
        // Again: still 200.
        let (again, againNonce) = context.token(sub: sub, email: account.email)
        #expect(try await server.client.send("POST", "/auth/apple/link", json: ["identity_token": again, "nonce": againNonce, "password": account.password], token: pair.access).status == 200)

        // Now Apple signs this account in.
        let (login, loginNonce) = context.token(sub: sub, email: account.email)
        let signedIn = try await context.signIn(login, nonce: loginNonce)
        #expect(signedIn.status == 200, "\(signedIn.text)")
        #expect(try signedIn.decode(TokenPair.self).user.id == pair.user.id)

        // Another account may not take this Apple ID, and this account may not take a second one.
        let (other, otherPair) = try await server.verifiedAccount("other")
        let (stolen, stolenNonce) = context.token(sub: sub, email: account.email)
        let taken = try await server.client.send(
            "POST", "/auth/apple/link", json: ["identity_token": stolen, "nonce": stolenNonce, "password": other.password], token: otherPair.access)
        #expect(taken.status == 409 && taken.problem?.code == .appleAlreadyLinked)
        let (second, secondNonce) = context.token(sub: AppleServer.newUser().sub, email: account.email)
        let twice = try await server.client.send(
            "POST", "/auth/apple/link", json: ["identity_token": second, "nonce": secondNonce, "password": account.password], token: pair.access)
        #expect(twice.status == 409 && twice.problem?.code == .appleAlreadyLinked)
        // A broken token is refused at linking too.
        let (bad, badNonce) = context.token(sub: sub, email: account.email) { $0.aud = "com.example.stranger" }
        #expect(try await server.client.send(
            "POST", "/auth/apple/link", json: ["identity_token": bad, "nonce": badNonce, "password": other.password], token: otherPair.access).status == 403)

        // Unlinking (with the password's proof) revokes the grant at Apple.
        let unlinked = try await server.client.send("DELETE", "/auth/apple/link", json: ["password": account.password], token: pair.access)
        #expect(unlinked.status == 204)
        #expect(try await server.me(pair.access).decode(User.self).appleLinked == false)
        try await eventually("the grant is revoked") { apple.revoked.contains { $0.token == appleRefresh && $0.clientID == AppleStandIn.clientID } }
        #expect(try await server.client.send("DELETE", "/auth/apple/link", json: ["password": account.password], token: pair.access).status == 404)
        await context.stop()
        let logs = server.logs
        #expect(logs.contains("\"apple_link_required\"") && logs.contains("\"apple_linked\"") && logs.contains("\"apple_unlinked\""))
        #expect(logs.contains("\"apple_grant_revoked\""))
    }

    @Test func appleIsNotUnlinkedFromAnAccountWithNoOtherWayIn() async throws {
        let context = try await AppleServer.start(PasskeyServer.arguments)
        let (sub, email, _, pair) = try await context.appleAccount("lastway")
        let (token, nonce) = context.token(sub: sub, email: email)
        let appleProof = ["apple_identity_token": token, "apple_nonce": nonce]
        let refused = try await context.server.client.send("DELETE", "/auth/apple/link", json: appleProof, token: pair.access)
        #expect(refused.status == 409 && refused.problem?.code == .lastSignInMethod)
        #expect(try await context.server.me(pair.access).decode(User.self).appleLinked == true)
        // With a passkey (added with a fresh token of the linked Apple ID), Apple may go, the passkey proving it.
        var (passkey, _) = try await context.server.addPasskey(pair.access, proof: appleProof)
        let proof = try await context.server.passkeyProof(&passkey, token: pair.access)
        #expect(try await context.server.client.send("DELETE", "/auth/apple/link", json: proof, token: pair.access).status == 204)
        await context.stop()
    }

    @Test func anAccountWithAnAuthenticatorAppGetsItsSecondStepAfterApple() async throws {
        let context = try await AppleServer.start()
        let (server, clock) = (context.server, context.clock)
        let protected = try await server.accountWithSecondFactor("mfaapple")
        let sub = AppleServer.newUser().sub
        let (linkToken, linkNonce) = context.token(sub: sub, email: protected.account.email)
        let linked = try await server.client.send(
            "POST", "/auth/apple/link",
            json: ["identity_token": linkToken, "nonce": linkNonce, "password": protected.account.password, "code": protected.code(at: clock.nextStep())],
            token: protected.pair.access)
        #expect(linked.status == 200, "\(linked.text)")

        let (token, nonce) = context.token(sub: sub, email: protected.account.email)
        let first = try await context.signIn(token, nonce: nonce)
        #expect(first.status == 403 && first.problem?.code == .mfaRequired, "\(first.text)")
        let challenge = try #require(first.problem?.mfaToken)
        let answered = try await server.answer(challenge, code: protected.code(at: clock.nextStep()))
        #expect(answered.status == 200, "\(answered.text)")
        #expect(try amr(try answered.decode(TokenPair.self).access) == ["apple", "otp"])
        await context.stop()
    }

    @Test func deletingAnAppleAccountRevokesItsGrantAndRetriesUntilAppleTakesIt() async throws {
        let context = try await AppleServer.start()
        let (server, apple, clock) = (context.server, context.apple, context.clock)
        let (sub, email, appleRefresh, pair) = try await context.appleAccount("deleted")

        // The proof is a fresh Apple token of this account's Apple ID, where the password would go.
        let missing = try await server.client.send("DELETE", "/auth/me", json: [:], token: pair.access)
        #expect(missing.status == 422 && missing.problem?.errors?["apple_identity_token"] != nil)
        let (strangerToken, strangerNonce) = context.token(sub: AppleServer.newUser().sub, email: email)
        let stranger = try await server.client.send(
            "DELETE", "/auth/me", json: ["apple_identity_token": strangerToken, "apple_nonce": strangerNonce], token: pair.access)
        #expect(stranger.status == 403 && stranger.problem?.code == .appleTokenInvalid)
        let (staleToken, staleNonce) = context.token(sub: sub, email: email) { $0.issuedAt = $0.issuedAt.addingTimeInterval(-1200); $0.lifetime = 3600 }
        #expect(try await server.client.send(
            "DELETE", "/auth/me", json: ["apple_identity_token": staleToken, "apple_nonce": staleNonce], token: pair.access).status == 403)
        #expect(try await server.client.send("DELETE", "/auth/me", json: ["password": "a-guess-1234"], token: pair.access).status == 403)

        apple.failNextRevokes(2)
        let (token, nonce) = context.token(sub: sub, email: email)
        let deleted = try await server.client.send("DELETE", "/auth/me", json: ["apple_identity_token": token, "apple_nonce": nonce], token: pair.access)
        #expect(deleted.status == 204, "\(deleted.text)")
        try await eventually("the first try") { apple.revokeAttempts >= 1 }
        clock.advance(11)
        try await eventually("the second try") { apple.revokeAttempts >= 2 }
        clock.advance(21)
        try await eventually("the grant is revoked") { apple.revoked.contains { $0.token == appleRefresh } }
        #expect(apple.revokeAttempts == 3 && apple.refusals.isEmpty, "\(apple.refusals)")

        // The Apple user is new again.
        let (back, backNonce) = context.token(sub: sub, email: email)
        #expect(try await context.signIn(back, nonce: backNonce).problem?.code == .profileRequired)
        await context.stop()
        let logs = server.logs
        #expect(logs.contains("\"outbox_delivery_failed\"") && logs.contains("\"apple_grant_revoked\""))
        #expect(!logs.contains(appleRefresh))
    }

    @Test func withoutAppleConfiguredTheRoutesSaySoAndDeletionLeavesTheRevocationForAServerWithTheKey() async throws {
        let plain = try await ServerProcess.start()
        let reply = try await plain.client.send("POST", "/auth/apple", json: ["identity_token": "x", "nonce": "y"])
        #expect(reply.status == 404 && reply.problem?.code == .appleNotConfigured)
        #expect(try await plain.client.send("POST", "/auth/apple/complete", json: ["continuation_token": "x", "username": "abc", "mbti": "INTJ"]).status == 404)
        await plain.stop()

        // A linked account on a server that then loses its Apple options (the same database).
        let folder = try TemporaryFolder()
        let context = try await AppleServer.start(folder: folder)
        let (account, pair) = try await context.server.verifiedAccount("unconfigured")
        let (code, refresh) = context.apple.authorizationCode()
        let (token, nonce) = context.token(sub: AppleServer.newUser().sub, email: account.email)
        #expect(try await context.server.client.send(
            "POST", "/auth/apple/link", json: ["identity_token": token, "nonce": nonce, "authorization_code": code, "password": account.password],
            token: pair.access).status == 200)
        await context.server.stop()
        let bare = try await ServerProcess.start(in: folder, clock: context.clock)
        let again = try await bare.logIn(account)
        #expect(again.user.appleLinked == true)
        let deleted = try await bare.client.send("DELETE", "/auth/me", json: ["password": account.password], token: again.access)
        #expect(deleted.status == 204, "\(deleted.text)")
        try await eventually("the server without the key leaves the revocation queued") { bare.logs.contains("\"apple_revoke_deferred\"") }
        await bare.stop()
        #expect(bare.logs.contains("no_apple_key") && !bare.logs.contains("\"apple_revoke_skipped\""))
        #expect(context.apple.revokeAttempts == 0)
        // A server with the key on the same database sends it.
        let keyed = try await ServerProcess.start(in: folder, clock: context.clock, context.apple.serverArguments)
        try await eventually("the grant is revoked") { context.apple.revoked.contains { $0.token == refresh } }
        await keyed.stop()
        await context.apple.stop()
    }
}

/// The `kid` of a JWS's header.
private func accessHeaderKid(_ token: String) throws -> String? {
    let header = try #require(token.split(separator: ".").first.flatMap { Base64URL.decode($0) })
    return (try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])?["kid"] as? String
}
