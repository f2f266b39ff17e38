import AccountAPI
import Foundation
import TestSupport
import Testing

/// The server's own output (access log and events) never carries a secret a test handed it.
@Suite struct LogSecrecyTests {
    @Test func aWholeFlowLeavesNoSecretInTheLogs() async throws {
        let server = try await ServerProcess.start()
        var secrets: [String: String] = [:]

        // Details first, with a wrong code and a wrong password on the way.
        let account = TestAccount("secret")
        secrets["password"] = account.password
        try await server.signUp(account)
        let code = try await server.mail.code(to: account.email)
        secrets["code"] = code
        let wrongCode = code == "000000" ? "111111" : "000000"
        secrets["wrong code"] = wrongCode
        #expect(try await server.client.send("POST", "/auth/email/verify", json: ["email": account.email, "code": wrongCode]).status == 400)
        let verified = try await server.verify(account.email)
        secrets["email_verification_token"] = verified.emailVerificationToken
        let wrongPassword = "Wrong-\(UUID().uuidString)"
        secrets["wrong password"] = wrongPassword
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": wrongPassword]).status == 401)

        let login = try await server.logIn(account)
        let rotated = try await server.refresh(login.refresh).decode(TokenPair.self)
        secrets["first access"] = login.access
        secrets["first refresh"] = login.refresh
        secrets["second access"] = rotated.access
        secrets["second refresh"] = rotated.refresh
        #expect(try await server.me(rotated.access).status == 200)
        // A refused token and a refresh after logout also go through the error paths.
        #expect(try await server.client.send("GET", "/auth/me", token: rotated.access + "x").status == 401)
        #expect(try await server.client.send("POST", "/auth/logout", token: rotated.access).status == 204)
        #expect(try await server.refresh(rotated.refresh).status == 401)

        // Email first, whose token is a secret too.
        let second = TestAccount("secret")
        secrets["second password"] = second.password
        #expect(try await server.client.send("POST", "/auth/email/code", model: EmailCodeRequest(email: second.email, purpose: .signup)).status == 202)
        let proof = try await server.verify(second.email)
        secrets["second email_verification_token"] = proof.emailVerificationToken
        var request = second.signUpRequest
        request.emailVerificationToken = proof.emailVerificationToken
        let created = try await server.client.send("POST", "/auth/signup", model: request).decode(TokenPair.self)
        secrets["created access"] = created.access
        secrets["created refresh"] = created.refresh

        await server.stop()
        let logs = server.logs
        // The log is not empty (it would hide nothing then): it has the login events.
        #expect(logs.contains("login_succeeded") && logs.contains("login_failed"))
        // Each security event of the flow is there, with its request id and client address.
        let events = logs.split(separator: "\n").compactMap { line -> [String: String]? in
            guard let data = line.data(using: .utf8) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: String]
        }
        for name in ["code_sent", "code_failed", "login_failed", "login_succeeded", "logout"] {
            let event = events.first { $0["event"] == name }
            #expect(event?["request_id"] != nil && event?["client"] == "127.0.0.1" && event?["time"] != nil, "\(name)")
        }
        #expect(events.first { $0["event"] == "login_succeeded" }?["user_id"] == login.user.id.uuidString.lowercased())
        for (name, secret) in secrets {
            #expect(!logs.contains(secret), "the \(name) appears in the server's output")
            // A JWT's signature alone is as good as the token for matching a leak.
            if let signature = secret.split(separator: ".").last, secret.split(separator: ".").count == 3 {
                #expect(!logs.contains(signature), "the signature of the \(name) appears in the server's output")
            }
        }
    }
}
