import AccountAPI
import Foundation
import TestSupport
import Testing

/// Passkeys against the real binary, with the tests' software authenticator (ES256, EdDSA and
/// RS256 keys, `none` and `packed` self-attestation) and the server's clock moved by `--clock-file`.
@Suite struct PasskeyTests {
    func start() async throws -> (ServerProcess, TestClock) {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        return (try await ServerProcess.start(in: folder, clock: clock, PasskeyServer.arguments), clock)
    }

    static func mail(to address: String, containing text: String, in server: ServerProcess) async throws -> String {
        try await SecondFactorTests.mail(to: address, containing: text, in: server)
    }

    @Test func registerListAndLogInWithEachAlgorithm() async throws {
        let (server, _) = try await start()
        let (account, pair) = try await server.verifiedAccount("passkey")
        let options = try await server.registrationOptions(pair.access)
        #expect(options.rp == PasskeyRelyingParty(id: "example.com", name: "MBTI Playground"))
        #expect(options.user.name == account.email && options.user.displayName == account.username)
        #expect(Base64URL.decode(options.user.id)?.count == 16)
        #expect(Base64URL.decode(options.challenge)?.count == 32)
        #expect(options.pubKeyCredParams.map(\.alg) == [-8, -7, -257])
        #expect(options.attestation == "none" && options.timeout == 300_000 && options.excludeCredentials.isEmpty)
        #expect(options.authenticatorSelection.userVerification == "required" && options.authenticatorSelection.residentKey == "required")

        var passkeys: [SoftwareAuthenticator] = []
        // The first with the password; each next one with a passkey the account holds by then.
        var proof: [String: Any] = ["password": account.password]
        for (algorithm, name) in [(SoftwareAuthenticator.Algorithm.es256, "iPhone"), (.eddsa, "YubiKey 5"), (.rs256, "회사 노트북")] {
            let (passkey, added) = try await server.addPasskey(pair.access, algorithm, name: "  \(name) ", proof: proof)
            #expect(added.name == name && added.algorithm == passkey.coseAlgorithm && added.lastUsedAt == nil)
            #expect(added.credentialID == Base64URL.encode(passkey.credentialID))
            #expect(added.backupEligible && added.backedUp && added.transports == ["internal", "hybrid"])
            passkeys.append(passkey)
            proof = try await server.passkeyProof(&passkeys[passkeys.count - 1], token: pair.access)
        }
        // One notice a passkey, each naming its device.
        try await eventually("three notices") { server.mail.messages(to: account.email).filter { $0.contains("A passkey was added") }.count == 3 }
        let notices = server.mail.messages(to: account.email).filter { $0.contains("A passkey was added") }
        for name in ["iPhone", "YubiKey 5", "회사 노트북"] {
            #expect(notices.contains { $0.contains(name) }, "no notice names \(name)")
        }
        // The next options exclude the three.
        #expect(try await server.registrationOptions(pair.access).excludeCredentials.count == 3)

        let listed = try await server.client.send("GET", "/auth/passkeys", token: pair.access).decode(PasskeyList.self).passkeys
        #expect(listed.map(\.name) == ["iPhone", "YubiKey 5", "회사 노트북"])

        for index in passkeys.indices {
            let login = try await server.passkeyLogin(&passkeys[index])
            #expect(login.status == 200, "\(login.text)")
            let tokens = try login.decode(TokenPair.self)
            #expect(tokens.user.id == pair.user.id)
            #expect(try amr(tokens.access) == ["swk", "user", "mfa"])
            #expect(try amr(try await server.refresh(tokens.refresh).decode(TokenPair.self).access) == ["swk", "user", "mfa"])
        }
        let used = try await server.client.send("GET", "/auth/passkeys", token: pair.access).decode(PasskeyList.self).passkeys
        #expect(used.allSatisfy { $0.lastUsedAt != nil })

        // A passkey bound to its device (no backup eligibility) names a hardware key.
        var ceremony = PasskeyServer.ceremony
        ceremony.backupEligible = false
        ceremony.backedUp = false
        var (bound, _) = try await server.addPasskey(pair.access, ceremony: ceremony, proof: try await server.passkeyProof(&passkeys[0], token: pair.access))
        let boundLogin = try await server.passkeyLogin(&bound, ceremony)
        #expect(try amr(try boundLogin.decode(TokenPair.self).access) == ["hwk", "user", "mfa"])

        // Packed self-attestation is accepted.
        let (packed, challenge) = try await server.newPasskey(pair.access, .es256)
        let packedReply = try await server.register(
            packed.register(challenge: challenge, PasskeyServer.ceremony, attestation: .packedSelf),
            proof: try await server.passkeyProof(&passkeys[0], token: pair.access), token: pair.access)
        #expect(packedReply.status == 201, "\(packedReply.text)")

        await server.stop()
        let logs = server.logs
        #expect(logs.contains("\"passkey_added\"") && logs.contains("\"via\":\"passkey\""))
    }

    @Test func theAssociationFileListsTheApps() async throws {
        let (server, _) = try await start()
        let reply = try await server.client.send("GET", "/.well-known/apple-app-site-association")
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/json")
        let apps = (reply.object?["webcredentials"] as? [String: Any])?["apps"] as? [String]
        #expect(apps == [PasskeyServer.appID])
        await server.stop()
    }

    @Test func eachBrokenRuleIsRefusedAndSpendsItsChallenge() async throws {
        let (server, _) = try await start()
        let (account, pair) = try await server.verifiedAccount("pkrules")
        var (passkey, _) = try await server.addPasskey(pair.access, proof: ["password": account.password])

        // Registration: a wrong origin, RP id, missing UV; each spends its challenge.
        let registrationRules: [(inout SoftwareAuthenticator.Ceremony) -> Void] = [
            { $0.origin = "https://evil.example" }, { $0.rpID = "evil.example" }, { $0.userVerified = false }, { $0.type = "webauthn.get" },
        ]
        for breakRule in registrationRules {
            var ceremony = PasskeyServer.ceremony
            breakRule(&ceremony)
            let (fresh, challenge) = try await server.newPasskey(pair.access)
            // A refused credential is refused before its proof is looked at.
            let refused = try await server.register(fresh.register(challenge: challenge, ceremony), proof: [:], token: pair.access)
            #expect(refused.status == 422, "no proof: \(refused.text)")
            let proof = try await server.passkeyProof(&passkey, token: pair.access)
            let refusedWithProof = try await server.register(fresh.register(challenge: challenge, ceremony), proof: proof, token: pair.access)
            #expect(refusedWithProof.status == 400 && refusedWithProof.problem?.code == .passkeyInvalid, "\(refusedWithProof.text)")
            let retried = try await server.register(
                fresh.register(challenge: challenge, PasskeyServer.ceremony), proof: try await server.passkeyProof(&passkey, token: pair.access), token: pair.access)
            #expect(retried.status == 400 && retried.problem?.code == .challengeInvalid, "the challenge is spent: \(retried.text)")
        }

        // Login: wrong origin, wrong RP id, UV missing, a tampered signature.
        let rules: [(String, (inout SoftwareAuthenticator.Ceremony) -> Void)] = [
            ("origin", { $0.origin = "https://example.com.evil.example" }), ("rp id", { $0.rpID = "evil.example" }),
            ("uv", { $0.userVerified = false }), ("up", { $0.userPresent = false }), ("cross-origin", { $0.crossOrigin = true }),
        ]
        for (name, breakRule) in rules {
            var ceremony = PasskeyServer.ceremony
            breakRule(&ceremony)
            let refused = try await server.passkeyLogin(&passkey, ceremony)
            #expect(refused.status == 401 && refused.problem?.code == .passkeyInvalid, "\(name): \(refused.text)")
        }
        let options = try await server.loginOptions()
        let assertion = passkey.assert(challenge: try #require(Base64URL.decode(options.challenge)), PasskeyServer.ceremony)
        var tampered = assertion.json
        var response = try #require(tampered["response"] as? [String: Any])
        var signature = assertion.signature
        signature[signature.count - 1] ^= 1
        response["signature"] = Base64URL.encode(signature)
        tampered["response"] = response
        let forged = try await server.client.send("POST", "/auth/passkeys/login", json: ["credential": tampered])
        #expect(forged.status == 401 && forged.problem?.code == .passkeyInvalid, "\(forged.text)")
        // The challenge went with the forged answer.
        let late = try await server.answer(assertion)
        #expect(late.status == 400 && late.problem?.code == .challengeInvalid, "\(late.text)")

        // A good login, then the same response again: a replayed challenge.
        let good = try await server.loginOptions()
        let signed = passkey.assert(challenge: try #require(Base64URL.decode(good.challenge)), PasskeyServer.ceremony)
        #expect(try await server.answer(signed).status == 200)
        let replay = try await server.answer(signed)
        #expect(replay.status == 400 && replay.problem?.code == .challengeInvalid, "\(replay.text)")

        // A challenge the server never issued, and a registration challenge used to log in.
        let unknown = try await server.answer(passkey.assert(challenge: Array(repeating: 7, count: 32), PasskeyServer.ceremony))
        #expect(unknown.problem?.code == .challengeInvalid, "\(unknown.text)")
        let registration = try await server.registrationOptions(pair.access)
        let crossed = try await server.answer(passkey.assert(challenge: try #require(Base64URL.decode(registration.challenge)), PasskeyServer.ceremony))
        #expect(crossed.problem?.code == .challengeInvalid, "\(crossed.text)")

        // Malformed credentials.
        for bad: [String: Any] in [
            [:], ["credential": "x"], ["credential": ["id": "!!", "rawId": "!!", "type": "public-key", "response": [:] as [String: Any]] as [String: Any]],
        ] {
            let reply = try await server.client.send("POST", "/auth/passkeys/login", json: bad)
            #expect([400, 401, 422].contains(reply.status), "\(reply.text)")
        }
        await server.stop()
        let logs = server.logs
        for reason in ["origin_not_allowed", "rp_id_mismatch", "user_not_verified", "user_not_present", "cross_origin", "signature_invalid", "wrong_type"] {
            #expect(logs.contains("\"reason\":\"\(reason)\""), "no passkey_refused with reason \(reason)")
        }
    }

    @Test func anExpiredChallengeIsRefused() async throws {
        let (server, clock) = try await start()
        let (account, pair) = try await server.verifiedAccount("pkexpiry")
        var (passkey, _) = try await server.addPasskey(pair.access, proof: ["password": account.password])
        let options = try await server.loginOptions()
        clock.advance(301)
        let late = try await server.answer(passkey.assert(challenge: try #require(Base64URL.decode(options.challenge)), PasskeyServer.ceremony))
        #expect(late.status == 400 && late.problem?.code == .challengeExpired, "\(late.text)")
        let (fresh, challenge) = try await server.newPasskey(pair.access)
        clock.advance(200)
        let proof = try await server.passkeyProof(&passkey, token: pair.access)
        clock.advance(101)
        let lateRegistration = try await server.register(fresh.register(challenge: challenge, PasskeyServer.ceremony), proof: proof, token: pair.access)
        #expect(lateRegistration.status == 400 && lateRegistration.problem?.code == .challengeExpired, "\(lateRegistration.text)")
        // Within the 5 minutes it works.
        let options2 = try await server.loginOptions()
        clock.advance(290)
        #expect(try await server.answer(passkey.assert(challenge: try #require(Base64URL.decode(options2.challenge)), PasskeyServer.ceremony)).status == 200)
        await server.stop()
    }

    @Test func aCounterGoingBackwardsIsRefusedAndLogged() async throws {
        let (server, _) = try await start()
        let (account, pair) = try await server.verifiedAccount("pkcount")
        var (passkey, _) = try await server.addPasskey(pair.access, proof: ["password": account.password])
        passkey.signCount = 9
        #expect(try await server.passkeyLogin(&passkey).status == 200)  // 10
        var clone = passkey
        clone.signCount = 4
        let cloned = try await server.passkeyLogin(&clone)  // 5
        #expect(cloned.status == 401 && cloned.problem?.code == .passkeyInvalid, "\(cloned.text)")
        clone.signCount = 9
        #expect(try await server.passkeyLogin(&clone).status == 401, "the same counter again")  // 10
        #expect(try await server.passkeyLogin(&passkey).status == 200)  // 11

        // A passkey that keeps no counter (synced) logs in with 0 every time.
        var synced = try await server.addPasskey(pair.access, counts: false, proof: try await server.passkeyProof(&passkey, token: pair.access)).0
        for _ in 0..<2 { #expect(try await server.passkeyLogin(&synced).status == 200) }
        await server.stop()
        #expect(server.logs.contains("\"passkey_counter_regressed\""))
    }

    @Test func aCredentialBelongsToOneAccount() async throws {
        let (server, _) = try await start()
        let (aliceAccount, alice) = try await server.verifiedAccount("pkalice")
        let (bobAccount, bob) = try await server.verifiedAccount("pkbob")
        var (passkey, added) = try await server.addPasskey(alice.access, proof: ["password": aliceAccount.password])

        // Bob registers the same credential (its id) for his options: refused.
        let options = try await server.registrationOptions(bob.access)
        let copy = passkey.register(challenge: try #require(Base64URL.decode(options.challenge)), PasskeyServer.ceremony)
        let taken = try await server.register(copy, proof: ["password": bobAccount.password], token: bob.access)
        #expect(taken.status == 409 && taken.problem?.code == .passkeyExists, "\(taken.text)")
        // Alice's registration options answered with Bob's token: the challenge is not his.
        let alicesOptions = try await server.registrationOptions(alice.access)
        let (other, _) = try await server.newPasskey(bob.access)
        let stolen = try await server.register(
            other.register(challenge: try #require(Base64URL.decode(alicesOptions.challenge)), PasskeyServer.ceremony),
            proof: ["password": bobAccount.password], token: bob.access)
        #expect(stolen.status == 400 && stolen.problem?.code == .challengeInvalid, "\(stolen.text)")

        // A login naming Bob as the user of Alice's credential is refused.
        let bobHandle = try #require(Base64URL.decode(try await server.registrationOptions(bob.access).user.id))
        var mislabelled = SoftwareAuthenticator(algorithm: .es256, userHandle: bobHandle)
        #expect(mislabelled.userHandle != passkey.userHandle)
        let login = try await server.loginOptions()
        var assertion = passkey.assert(challenge: try #require(Base64URL.decode(login.challenge)), PasskeyServer.ceremony).json
        var response = try #require(assertion["response"] as? [String: Any])
        response["userHandle"] = Base64URL.encode(bobHandle)
        assertion["response"] = response
        let wrongUser = try await server.client.send("POST", "/auth/passkeys/login", json: ["credential": assertion])
        #expect(wrongUser.status == 401 && wrongUser.problem?.code == .passkeyInvalid, "\(wrongUser.text)")
        // A passkey no account has.
        let stranger = try await server.passkeyLogin(&mislabelled)
        #expect(stranger.status == 401 && stranger.problem?.code == .passkeyInvalid)

        // Bob cannot see or delete Alice's passkey.
        #expect(try await server.client.send("GET", "/auth/passkeys", token: bob.access).decode(PasskeyList.self).passkeys.isEmpty)
        let notHis = try await server.client.send("DELETE", "/auth/passkeys/\(added.id)", json: ["password": "whatever it is"], token: bob.access)
        #expect(notHis.status == 404, "\(notHis.text)")

        // Alice deletes it: her passkey proves it (the password alone does not, while she holds
        // one and no authenticator app), then it can no longer log in.
        let byPassword = try await server.client.send("DELETE", "/auth/passkeys/\(added.id)", json: ["password": aliceAccount.password], token: alice.access)
        #expect(byPassword.status == 422 && byPassword.problem?.errors?["passkey_assertion"] != nil, "\(byPassword.text)")
        let missing = try await server.client.send("DELETE", "/auth/passkeys/\(added.id)", json: [:], token: alice.access)
        #expect(missing.status == 422, "\(missing.text)")
        let deleted = try await server.client.send(
            "DELETE", "/auth/passkeys/\(added.id)", json: try await server.passkeyProof(&passkey, token: alice.access), token: alice.access)
        #expect(deleted.status == 204, "\(deleted.text)")
        _ = try await Self.mail(to: aliceAccount.email, containing: "A passkey was removed", in: server)
        let gone = try await server.passkeyLogin(&passkey)
        #expect(gone.status == 401 && gone.problem?.code == .passkeyInvalid)
        await server.stop()
        #expect(server.logs.contains("\"passkey_removed\"") && server.logs.contains("\"reason\":\"wrong_user_handle\""))
    }

    @Test func aPasskeyIsTheSecondFactorAndRemovingOneNeedsIt() async throws {
        let (server, clock) = try await start()
        let mfa = try await server.accountWithSecondFactor("pkmfa")
        var (passkey, added) = try await server.addPasskey(
            mfa.pair.access, proof: ["password": mfa.account.password, "code": mfa.code(at: clock.nextStep())])
        // The password alone now asks for the second factor; the passkey does not.
        _ = try await server.challenge(mfa.account)
        let login = try await server.passkeyLogin(&passkey)
        #expect(login.status == 200, "\(login.text)")
        #expect(try amr(try login.decode(TokenPair.self).access) == ["swk", "user", "mfa"])

        let path = "/auth/passkeys/\(added.id)"
        let withoutCode = try await server.client.send("DELETE", path, json: ["password": mfa.account.password], token: mfa.pair.access)
        #expect(withoutCode.status == 422, "\(withoutCode.text)")
        let withCode = try await server.client.send(
            "DELETE", path, json: ["password": mfa.account.password, "code": mfa.code(at: clock.nextStep())], token: mfa.pair.access)
        #expect(withCode.status == 204, "\(withCode.text)")
        await server.stop()
    }
}
