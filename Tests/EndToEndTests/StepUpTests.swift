import AccountAPI
import Foundation
import TestSupport
import Testing

/// Every change of how an account proves who it is takes a fresh proof of what the account had
/// before (the step-up), against the real binary: a stolen access token adds no way in, a new
/// method never outranks what proved it, every check counts in the back-off, and the owner is
/// mailed with the device and the address.
@Suite struct StepUpTests {
    /// The account's passkeys, by id.
    private func passkeyIDs(_ server: ServerProcess, _ token: String) async throws -> [String] {
        try await server.client.send("GET", "/auth/passkeys", token: token).decode(PasskeyList.self).passkeys.map(\.id.lowercasedText)
    }

    @Test func aBareTokenAddsNoPasskeyAndTheOwnerHearsOfEveryChange() async throws {
        let server = try await ServerProcess.start(in: try TemporaryFolder(), PasskeyServer.arguments)
        let (account, pair) = try await server.verifiedAccount("bare")

        // The token alone: the proof it lacks is named; a wrong password is refused; nothing is added.
        let (signer, challenge) = try await server.newPasskey(pair.access)
        let made = signer.register(challenge: challenge, PasskeyServer.ceremony)
        let bare = try await server.register(made, proof: [:], token: pair.access)
        #expect(bare.status == 422 && bare.problem?.errors?["password"] != nil, "\(bare.text)")
        let wrong = try await server.register(made, proof: ["password": "not-the-password"], token: pair.access)
        #expect(wrong.status == 403 && wrong.problem?.code == .invalidCredentials, "\(wrong.text)")
        #expect(try await passkeyIDs(server, pair.access).isEmpty)

        // With the password: added, and the owner is told, with the device and the address.
        let mailsBefore = await server.mail.delivered(to: account.email).count
        var (passkey, added) = try await server.addPasskey(pair.access, proof: ["password": account.password])
        let notices = try await server.mail.arrived(mailsBefore + 1, to: account.email)
        let notice = MailFolder.body(of: try #require(notices.last))
        #expect(notice.contains("127.0.0.1") && notice.contains("iPhone"), "\(notice)")

        // Now the account holds a passkey: the password alone changes nothing of how it signs in.
        for (method, path, body) in [
            ("POST", "/auth/mfa/totp", ["password": account.password]),
            ("DELETE", "/auth/passkeys/\(added.id.lowercasedText)", ["password": account.password]),
            ("DELETE", "/auth/me", ["password": account.password]),
            ("POST", "/auth/password/change", ["current_password": account.password, "new_password": "Another-\(UUID().uuidString)"]),
        ] {
            let reply = try await server.client.send(method, path, json: body, token: pair.access)
            #expect(reply.status == 422 && reply.problem?.errors?["passkey_assertion"] != nil, "\(method) \(path): \(reply.text)")
        }
        let (second, secondChallenge) = try await server.newPasskey(pair.access)
        let secondMade = second.register(challenge: secondChallenge, PasskeyServer.ceremony)
        let byPassword = try await server.register(secondMade, proof: ["password": account.password], token: pair.access)
        #expect(byPassword.status == 422 && byPassword.problem?.errors?["passkey_assertion"] != nil, "\(byPassword.text)")
        #expect(try await passkeyIDs(server, pair.access) == [added.id.lowercasedText])
        #expect(try await server.logIn(account).user.id == pair.user.id, "the password still logs in")

        // An assertion of the passkey it holds proves it.
        let proof = try await server.passkeyProof(&passkey, token: pair.access)
        let byPasskey = try await server.register(secondMade, name: "iPad", proof: proof, token: pair.access)
        #expect(byPasskey.status == 201, "\(byPasskey.text)")
        await server.stop()
    }

    @Test func anOperatorsPasswordNeverReachesTheAdminAPI() async throws {
        let server = try await ServerProcess.start(in: try TemporaryFolder(), PasskeyServer.arguments)
        let (account, pair) = try await server.verifiedAccount("keyop")
        var (passkey, added) = try await server.addPasskey(pair.access, proof: ["password": account.password])
        #expect(try await server.adminCommand(["grant", account.username]).status.code == 0)

        // A login with the password alone (what a phished password gives): the gate refuses it,
        // and its session can neither add a way in nor remove the passkey to make room for one.
        let passwordSession = try await server.logIn(account)
        #expect(try amr(passwordSession.access) == ["pwd"])
        let audit = try await server.client.send("GET", "/admin/api/audit", token: passwordSession.access)
        #expect(audit.status == 403 && audit.problem?.code == .secondFactorRequired)
        let (thiefs, challenge) = try await server.newPasskey(passwordSession.access)
        let added2 = try await server.register(
            thiefs.register(challenge: challenge, PasskeyServer.ceremony), proof: ["password": account.password], token: passwordSession.access)
        #expect(added2.status == 422 && added2.problem?.errors?["passkey_assertion"] != nil, "\(added2.text)")
        let removed = try await server.client.send(
            "DELETE", "/auth/passkeys/\(added.id.lowercasedText)", json: ["password": account.password], token: passwordSession.access)
        #expect(removed.status == 422, "\(removed.text)")
        let enrolled = try await server.client.send("POST", "/auth/mfa/totp", json: ["password": account.password], token: passwordSession.access)
        #expect(enrolled.status == 422, "\(enrolled.text)")
        // A passkey of the thief's own is no proof for this account.
        let (thief, thiefPair) = try await server.verifiedAccount("thief")
        var (foreign, _) = try await server.addPasskey(thiefPair.access, proof: ["password": thief.password])
        let foreignProof = try await server.passkeyProof(&foreign, token: thiefPair.access)
        let borrowed = try await server.client.send("POST", "/auth/mfa/totp", json: foreignProof, token: passwordSession.access)
        #expect(borrowed.status == 400 || borrowed.status == 403, "\(borrowed.text)")
        #expect(try await passkeyIDs(server, pair.access) == [added.id.lowercasedText])

        // The operator's own passkey still lets them in.
        let login = try await server.passkeyLogin(&passkey)
        let mfa = try login.decode(TokenPair.self)
        #expect(try await server.client.send("GET", "/admin/api/audit", token: mfa.access).status == 200)
        await server.stop()
    }

    @Test func anOperatorGetsNoShortcutOnTheirOwnAccount() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        let op = try await server.signedInOperator()
        for action in ["remove-second-factor", "disable", "delete"] {
            let reply = try await server.adminAction(action, on: op.id, token: op.access)
            #expect(reply.status == 409 && reply.problem?.code == .cannotActOnSelf, "\(action): \(reply.text)")
        }
        #expect(try await server.me(op.access).decode(User.self).mfa?.totp == true, "the factor is still on")
        await server.stop()
    }

    @Test func confirmingAnAuthenticatorCountsEveryWrongCode() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        let (account, pair) = try await server.verifiedAccount("guess")
        let enrolment = try await server.client.send("POST", "/auth/mfa/totp", json: ["password": account.password], token: pair.access)
        let secret = try #require(TOTPGenerator.base32Decode(try enrolment.decode(TOTPEnrollment.self).secret))
        let right = TOTPGenerator.code(secret: secret, at: clock.nextStep())
        var statuses: [Int] = []
        for guess in 0..<6 {
            let code = String(format: "%06d", (Int(right)! + 1 + guess) % 1_000_000)
            statuses.append(try await server.client.send("POST", "/auth/mfa/totp/confirm", json: ["code": code], token: pair.access).status)
        }
        #expect(statuses == [400, 400, 400, 400, 400, 429], "\(statuses)")
        // Backed off: even the right code waits, and the factor stays off.
        let backedOff = try await server.client.send("POST", "/auth/mfa/totp/confirm", json: ["code": right], token: pair.access)
        #expect(backedOff.status == 429 && backedOff.problem?.code == .rateLimited, "\(backedOff.text)")
        #expect(try await server.me(pair.access).decode(User.self).mfa?.totp == false)
        await server.stop()
    }

    @Test func everyRefusedProofCountsInTheBackOff() async throws {
        let server = try await ServerProcess.start(in: try TemporaryFolder(), PasskeyServer.arguments)
        let (account, pair) = try await server.verifiedAccount("proofs")
        var (passkey, _) = try await server.addPasskey(pair.access, proof: ["password": account.password])
        // Spent challenges, one after another: each a refused proof.
        let proof = try await server.passkeyProof(&passkey, token: pair.access)
        #expect(try await server.client.send("POST", "/auth/mfa/totp", json: proof, token: pair.access).status == 200)
        var statuses: [Int] = []
        for _ in 0..<6 { statuses.append(try await server.client.send("POST", "/auth/mfa/totp", json: proof, token: pair.access).status) }
        #expect(statuses == [400, 400, 400, 400, 400, 429], "\(statuses)")
        await server.stop()
    }
}

/// Sign in with Apple's link and unlink take the step-up too, and a replayed token never makes
/// the server call Apple.
@Suite struct AppleStepUpTests {
    @Test func linkingAndUnlinkingAppleTakeTheProofAndMailTheOwner() async throws {
        let context = try await AppleServer.start()
        let server = context.server
        let (account, pair) = try await server.verifiedAccount("linker")
        let (sub, email) = AppleServer.newUser()
        let (token, nonce) = context.token(sub: sub, email: email)
        let (code, _) = context.apple.authorizationCode()
        let body: [String: Any] = ["identity_token": token, "nonce": nonce, "authorization_code": code]

        let bare = try await server.client.send("POST", "/auth/apple/link", json: body, token: pair.access)
        #expect(bare.status == 422 && bare.problem?.errors?["password"] != nil, "\(bare.text)")
        #expect(context.apple.exchanged.isEmpty, "nothing was asked of Apple")
        // The token being linked is no proof of its own link.
        let selfProof = try await server.client.send(
            "POST", "/auth/apple/link", json: body.merging(["apple_identity_token": token, "apple_nonce": nonce]) { $1 }, token: pair.access)
        #expect(selfProof.status == 422, "\(selfProof.text)")
        #expect(try await server.me(pair.access).decode(User.self).appleLinked == false)

        let mailsBefore = await server.mail.delivered(to: account.email).count
        let linked = try await server.client.send(
            "POST", "/auth/apple/link", json: body.merging(["password": account.password]) { $1 }, token: pair.access)
        #expect(linked.status == 200, "\(linked.text)")
        let afterLink = try await server.mail.arrived(mailsBefore + 1, to: account.email)
        #expect(MailFolder.body(of: try #require(afterLink.last)).contains("Apple"))

        // A replay of the linked token is refused before Apple is asked for anything: its token
        // endpoint (whatever it would answer) and its keys.
        func tokenEndpointCalls() -> Int { context.apple.exchanged.count + context.apple.refusals.filter { $0.hasPrefix("token: ") }.count }
        let calls = tokenEndpointCalls()
        let replay = try await server.client.send(
            "POST", "/auth/apple/link", json: body.merging(["password": account.password]) { $1 }, token: pair.access)
        #expect(replay.status == 403 && replay.problem?.code == .appleTokenInvalid, "\(replay.text)")
        let loginReplay = try await context.signIn(token, nonce: nonce, code: code)
        #expect(loginReplay.status == 401, "\(loginReplay.text)")
        #expect(tokenEndpointCalls() == calls, "no token-endpoint call for a replayed token")


        let unlinkBare = try await server.client.send("DELETE", "/auth/apple/link", json: [:], token: pair.access)
        #expect(unlinkBare.status == 422 && unlinkBare.problem?.errors?["password"] != nil, "\(unlinkBare.text)")
        #expect(try await server.me(pair.access).decode(User.self).appleLinked == true)
        let unlinked = try await server.client.send("DELETE", "/auth/apple/link", json: ["password": account.password], token: pair.access)
        #expect(unlinked.status == 204, "\(unlinked.text)")
        _ = try await server.mail.arrived(mailsBefore + 2, to: account.email)
        await context.stop()
    }

    @Test func aReplayedOrWrongTokenNeverMakesTheServerCallApple() async throws {
        let context = try await AppleServer.start()
        func tokenEndpointCalls() -> Int { context.apple.exchanged.count + context.apple.refusals.filter { $0.hasPrefix("token: ") }.count }
        let (sub, email) = AppleServer.newUser()
        let (token, nonce) = context.token(sub: sub, email: email)
        let first = try await context.signIn(token, nonce: nonce, code: context.apple.authorizationCode().code)
        #expect(first.status == 403 && first.problem?.code == .profileRequired, "\(first.text)")
        let calls = tokenEndpointCalls()
        #expect(calls == 1, "the first use exchanged its code")

        // The same token again, with a code of its own: refused, and Apple's token endpoint never called.
        let replay = try await context.signIn(token, nonce: nonce, code: context.apple.authorizationCode().code)
        #expect(replay.status == 401 && replay.problem?.code == .appleTokenInvalid, "\(replay.text)")
        #expect(tokenEndpointCalls() == calls, "no token-endpoint call for a replayed token")

        // A token that fails a local check (its nonce) under a key nobody published, once the
        // key set may be fetched again: refused without asking Apple for keys.
        context.clock.advance(11)
        let fetches = context.apple.jwksFetches
        let claims = AppleStandIn.claims(sub: sub, email: email, nonce: "another nonce", now: context.clock.serverNow)
        let unknownKey = context.apple.identityToken(claims, kid: "never-published")
        let local = try await context.signIn(unknownKey, nonce: nonce)
        #expect(local.status == 401 && local.problem?.code == .appleTokenInvalid, "\(local.text)")
        #expect(context.apple.jwksFetches == fetches, "no key fetched for a token a local check refuses")
        await context.stop()
    }
}
