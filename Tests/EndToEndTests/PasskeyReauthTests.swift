import AccountAPI
import Foundation
import TestSupport
import Testing

/// A passkey proves a sensitive change: the way in for an account with neither a password nor
/// Apple (an Apple account that added a passkey and unlinked Apple), and an alternative to the
/// password for any account. The challenge comes from `POST /auth/passkeys/reauth/options`, is
/// single use, 5 minutes, and bound to the session and the account that asked.
@Suite(.serialized) struct PasskeyReauthTests {
    /// Options for the session of `token`; expects 200.
    private func options(_ server: ServerProcess, _ token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [UInt8] {
        let reply = try await server.client.send("POST", "/auth/passkeys/reauth/options", token: token)
        try #require(reply.status == 200, "\(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try #require(Base64URL.decode(try reply.decode(PasskeyRequestOptions.self).challenge), sourceLocation: sourceLocation)
    }

    private func enroll(_ server: ServerProcess, _ assertion: SoftwareAuthenticator.Assertion, token: String) async throws -> Reply {
        try await server.client.send("POST", "/auth/mfa/totp", json: ["passkey_assertion": assertion.json], token: token)
    }

    @Test func anAccountWithOnlyAPasskeyProvesChangesWithIt() async throws {
        let context = try await AppleServer.start(PasskeyServer.arguments)
        let (server, clock) = (context.server, context.clock)
        let (sub, email, _, pair) = try await context.appleAccount("pkonly")
        let (appleToken, appleNonce) = context.token(sub: sub, email: email)
        var (signer, passkey) = try await server.addPasskey(pair.access, proof: ["apple_identity_token": appleToken, "apple_nonce": appleNonce])
        let unlinkProof = try await server.passkeyProof(&signer, token: pair.access)
        #expect(try await server.client.send("DELETE", "/auth/apple/link", json: unlinkProof, token: pair.access).status == 204)
        let me = try await server.me(pair.access).decode(User.self)
        #expect(me.hasPassword == false && me.appleLinked == false, "such an account exists")

        // Without a proof, the field it needs is named.
        let missing = try await server.client.send("DELETE", "/auth/me", json: [:], token: pair.access)
        #expect(missing.status == 422 && missing.problem?.errors?["passkey_assertion"] != nil, "\(missing.text)")

        // The options list the account's passkeys and ask for user verification.
        let reply = try await server.client.send("POST", "/auth/passkeys/reauth/options", token: pair.access)
        let offered = try reply.decode(PasskeyRequestOptions.self)
        #expect(offered.allowCredentials.map(\.id) == [passkey.credentialID] && offered.userVerification == "required")
        #expect(offered.rpId == PasskeyServer.rpID)

        // A good assertion proves the change; the same one again is a spent challenge.
        let good = signer.assert(challenge: try #require(Base64URL.decode(offered.challenge)), PasskeyServer.ceremony)
        let enrolled = try await enroll(server, good, token: pair.access)
        #expect(enrolled.status == 200, "\(enrolled.text)")
        let replay = try await enroll(server, good, token: pair.access)
        #expect(replay.status == 400 && replay.problem?.code == .challengeInvalid, "\(replay.text)")

        // Another session's challenge is no challenge for this one (and stays its own).
        let second = try await server.passkeyLogin(&signer)
        let otherSession = try second.decode(TokenPair.self)
        let theirs = signer.assert(challenge: try await options(server, otherSession.access), PasskeyServer.ceremony)
        let crossed = try await enroll(server, theirs, token: pair.access)
        #expect(crossed.status == 400 && crossed.problem?.code == .challengeInvalid, "\(crossed.text)")
        #expect(try await enroll(server, theirs, token: otherSession.access).status == 200)

        // Expired after 5 minutes.
        let late = signer.assert(challenge: try await options(server, pair.access), PasskeyServer.ceremony)
        clock.advance(301)
        let expired = try await enroll(server, late, token: pair.access)
        #expect(expired.status == 400 && expired.problem?.code == .challengeExpired, "\(expired.text)")

        // A passkey the account does not have, with its user handle: refused.
        var stranger = SoftwareAuthenticator(algorithm: .es256, userHandle: signer.userHandle)
        let forged = try await enroll(server, stranger.assert(challenge: try await options(server, pair.access), PasskeyServer.ceremony), token: pair.access)
        #expect(forged.status == 403 && forged.problem?.code == .passkeyInvalid, "\(forged.text)")

        // Another account's real passkey: refused the same way.
        let (otherAccount, otherPair) = try await server.verifiedAccount("pkother")
        var (otherSigner, _) = try await server.addPasskey(otherPair.access, proof: ["password": otherAccount.password])
        let borrowed = otherSigner.assert(challenge: try await options(server, pair.access), PasskeyServer.ceremony)
        let refused = try await enroll(server, borrowed, token: pair.access)
        #expect(refused.status == 403 && refused.problem?.code == .passkeyInvalid, "\(refused.text)")

        // A counter that goes back (a cloned key): refused.
        var clone = signer
        clone.signCount = 0
        let cloned = try await enroll(server, clone.assert(challenge: try await options(server, pair.access), PasskeyServer.ceremony), token: pair.access)
        #expect(cloned.status == 403 && cloned.problem?.code == .passkeyInvalid, "\(cloned.text)")

        // The account goes with a passkey's proof.
        let deleted = try await server.client.send(
            "DELETE", "/auth/me", json: ["passkey_assertion": signer.assert(challenge: try await options(server, pair.access), PasskeyServer.ceremony).json],
            token: pair.access)
        #expect(deleted.status == 204, "\(deleted.text)")
        await context.stop()
        let logs = server.logs
        for reason in ["challenge_unknown", "challenge_expired", "unknown_credential"] {
            #expect(logs.contains("\"reason\":\"\(reason)\""), "no passkey_refused with reason \(reason)")
        }
        #expect(logs.contains("\"via\":\"mfa_enroll\""))
        _ = passkey
    }

    @Test func aPasswordAccountMayUseItsPasskeyInsteadAndOneWithoutGetsNoOptions() async throws {
        let server = try await ServerProcess.start(PasskeyServer.arguments)
        let (account, pair) = try await server.verifiedAccount("pkpassword")
        let none = try await server.client.send("POST", "/auth/passkeys/reauth/options", token: pair.access)
        #expect(none.status == 404, "\(none.text)")
        #expect(try await server.client.send("POST", "/auth/passkeys/reauth/options").status == 401)

        var (signer, passkey) = try await server.addPasskey(pair.access, proof: ["password": account.password])
        let challenge = try await options(server, pair.access)
        let removed = try await server.client.send(
            "DELETE", "/auth/passkeys/\(passkey.id.uuidString.lowercased())",
            json: ["passkey_assertion": signer.assert(challenge: challenge, PasskeyServer.ceremony).json], token: pair.access)
        #expect(removed.status == 204, "\(removed.text)")
        await server.stop()
    }
}
