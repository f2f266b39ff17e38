import AccountAPI
import Foundation
import TestSupport
import Testing

/// Every id on the wire is a lower-case UUID (docs/API.md, *Conventions*): one walk through the
/// server's replies, of every shape it makes, checks every string in every JSON body (and in the
/// claims of every access token in one), so a reply field added later is covered as it is.
@Suite struct WireIDTests {
    /// Sends requests to one server and keeps every reply with its request line.
    final class Recorder: @unchecked Sendable {
        let server: ServerProcess
        private(set) var replies: [(request: String, reply: Reply)] = []

        init(_ server: ServerProcess) { self.server = server }

        /// Sends the request and expects `status`; the reply.
        @discardableResult
        func send(
            _ method: String, _ path: String, json: [String: Any]? = nil, token: String? = nil, expect status: Int = 200,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Reply {
            let reply = try await server.client.send(method, path, json: json, token: token)
            replies.append(("\(method) \(path)", reply))
            try #require(reply.status == status, "\(method) \(path): \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
            return reply
        }
    }

    @Test("every UUID in every reply is lower case: sign-up, sessions, passkeys, second factor, admin", arguments: Backend.available)
    func everyReplyWritesLowerCaseIDs(_ backend: Backend) async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        // Ids read back from either database.
        let database = backend == .postgres ? try await PostgresTestServer.freshDatabase() : nil
        let server = try await ServerProcess.start(
            in: folder, clock: clock, PasskeyServer.arguments + (database.map { ["--database-url", $0] } ?? []))
        let wire = Recorder(server)

        try await wire.send("GET", "/auth/policy")
        try await wire.send("GET", "/.well-known/jwks.json")
        try await wire.send("GET", "/openapi.json")
        try await wire.send("POST", "/auth/signup", json: ["username": "x"], expect: 422)

        // Email first: a code, its token, then the sign-up that signs in (201).
        let mina = TestAccount("mina")
        try await wire.send("POST", "/auth/email/code", json: ["email": mina.email, "purpose": "signup"], expect: 202)
        let proof = try await wire.send(
            "POST", "/auth/email/verify", json: ["email": mina.email, "code": try await server.mail.code(to: mina.email)])
        let token = try #require(proof.object?["email_verification_token"] as? String)
        try await wire.send("POST", "/auth/signup", json: mina.signUpFields.merging(["email_verification_token": token]) { $1 }, expect: 201)

        // Details first: the code's verification signs in.
        let joon = TestAccount("joon")
        let accepted = try await wire.send("POST", "/auth/signup", json: joon.signUpFields, expect: 202)
        let signUpToken = try #require(accepted.object?["signup_token"] as? String)
        let verified = try await wire.send("POST", "/auth/email/verify", json: [
            "email": joon.email, "code": try await server.mail.code(to: joon.email), "sign_in": true, "signup_token": signUpToken,
        ])
        try #require(verified.object?["session"] != nil, "\(verified.text)")

        // Login, refresh, the account, its sessions and history.
        let login = try await wire.send("POST", "/auth/login", json: ["username": mina.username, "password": mina.password])
        var pair = try login.decode(TokenPair.self)
        pair = try await wire.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).decode(TokenPair.self)
        try await wire.send("GET", "/auth/me", token: pair.access)
        try await wire.send("PATCH", "/auth/me", json: ["mbti": "INTJ"], token: pair.access)
        try await wire.send("GET", "/auth/sessions", token: pair.access)
        try await wire.send("GET", "/auth/security-events", token: pair.access)
        try await wire.send("POST", "/auth/login", json: ["username": mina.username, "password": "not it"], expect: 401)

        // A passkey (the step-up proof sent before it is asked for), listed, and a login with it.
        let options = try await wire.send(
            "POST", "/auth/passkeys/register/options", json: ["password": mina.password], token: pair.access
        ).decode(PasskeyCreationOptions.self)
        var passkey = SoftwareAuthenticator(algorithm: .es256, userHandle: try #require(Base64URL.decode(options.user.id)))
        let made = passkey.register(challenge: try #require(Base64URL.decode(options.challenge)), PasskeyServer.ceremony)
        try await wire.send(
            "POST", "/auth/passkeys/register", json: ["name": "iPhone", "credential": made.json, "password": mina.password],
            token: pair.access, expect: 201)
        try await wire.send("GET", "/auth/passkeys", token: pair.access)
        let loginOptions = try await wire.send("POST", "/auth/passkeys/login/options").decode(PasskeyRequestOptions.self)
        let assertion = passkey.assert(challenge: try #require(Base64URL.decode(loginOptions.challenge)), PasskeyServer.ceremony)
        try await wire.send("POST", "/auth/passkeys/login", json: ["credential": assertion.json])
        let reauth = try await wire.send("POST", "/auth/passkeys/reauth/options", token: pair.access).decode(PasskeyRequestOptions.self)

        // The authenticator app (the passkey Mina holds proves it): enrolment, confirmation, new
        // recovery codes, then a login's two steps.
        let reauthProof = passkey.assert(challenge: try #require(Base64URL.decode(reauth.challenge)), PasskeyServer.ceremony)
        let enrolment = try await wire.send("POST", "/auth/mfa/totp", json: ["passkey_assertion": reauthProof.json], token: pair.access)
        let secret = try #require(TOTPGenerator.base32Decode(try enrolment.decode(TOTPEnrollment.self).secret))
        let confirmCode = TOTPGenerator.code(secret: secret, at: clock.nextStep())
        try await wire.send("POST", "/auth/mfa/totp/confirm", json: ["code": confirmCode, "password": mina.password], token: pair.access)
        try await wire.send(
            "POST", "/auth/mfa/recovery-codes", json: ["password": mina.password, "code": TOTPGenerator.code(secret: secret, at: clock.nextStep())],
            token: pair.access)

        // Mina becomes an operator, signed in with her second factor, and looks Joon up.
        let grant = try await server.adminCommand(["grant", mina.username, "--reason", "tests"], database: database)
        try #require(grant.status.code == 0, "grant: \(grant)")
        let challenge = try await wire.send("POST", "/auth/login", json: ["username": mina.username, "password": mina.password], expect: 403)
        let mfaToken = try #require(challenge.object?["mfa_token"] as? String, "\(challenge.text)")
        let op = try await wire.send(
            "POST", "/auth/mfa/verify", json: ["mfa_token": mfaToken, "code": TOTPGenerator.code(secret: secret, at: clock.nextStep())]
        ).decode(TokenPair.self)
        let found = try await wire.send("GET", "/admin/api/users?q=\(joon.username)", token: op.access)
        let joonID = try #require(((found.object?["users"] as? [[String: Any]])?.first)?["id"] as? String, "\(found.text)")
        try await wire.send("GET", "/admin/api/users/\(joonID)", token: op.access)
        for action in ["end-sessions", "disable", "enable"] {
            try await wire.send("POST", "/admin/api/users/\(joonID)/\(action)", json: ["reason": "tests"], token: op.access)
        }
        try await wire.send("GET", "/admin/api/audit", token: op.access)
        try await wire.send("GET", "/admin/api/figures", token: op.access)
        try await wire.send("GET", "/admin/api/users/\(UUID().lowercasedText)", token: op.access, expect: 404)
        await server.stop()

        var upperCase: [String] = []
        for (request, reply) in wire.replies where !reply.body.isEmpty {
            guard let json = try? JSONSerialization.jsonObject(with: reply.body, options: [.fragmentsAllowed]) else {
                Issue.record("\(request): not JSON: \(reply.text)")
                continue
            }
            upperCase += Self.upperCaseIDs(in: json, at: request)
        }
        #expect(wire.replies.count >= 30, "\(wire.replies.count) replies")
        #expect(upperCase.isEmpty, "ids not in lower case:\n\(upperCase.joined(separator: "\n"))")
    }

    /// Where `json` holds a string (a member's name too) that is a UUID not written in lower case,
    /// walking objects and arrays, and the claims of strings that are access tokens.
    static func upperCaseIDs(in json: Any, at path: String) -> [String] {
        switch json {
        case let object as [String: Any]:
            return object.flatMap { name, value in
                (isUpperCaseID(name) ? ["\(path) (a member's name): \(name)"] : []) + upperCaseIDs(in: value, at: "\(path).\(name)")
            }
        case let array as [Any]:
            return array.enumerated().flatMap { index, value in upperCaseIDs(in: value, at: "\(path)[\(index)]") }
        case let text as String:
            if isUpperCaseID(text) { return ["\(path): \(text)"] }
            guard let claims = try? accessClaims(text) else { return [] }
            return upperCaseIDs(in: claims, at: "\(path) (claims)")
        default:
            return []
        }
    }

    static func isUpperCaseID(_ text: String) -> Bool {
        UUID(uuidString: text) != nil && text != text.lowercased()
    }
}
