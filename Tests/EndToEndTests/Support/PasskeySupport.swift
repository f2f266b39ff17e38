import AccountAPI
import Foundation
import TestSupport
import Testing

/// The relying party every passkey test server is: `example.com`, its origin and an app's
/// subdomain, and one iOS app.
enum PasskeyServer {
    static let rpID = "example.com"
    static let origin = "https://example.com"
    static let appID = "ABCDE12345.com.example.mbti"
    static let arguments = [
        "--webauthn-rp-id", rpID, "--webauthn-origin", origin, "--webauthn-origin", "https://app.example.com", "--apple-app-id", appID,
    ]
    /// A ceremony as a good browser on the server's origin runs it.
    static var ceremony: SoftwareAuthenticator.Ceremony { SoftwareAuthenticator.Ceremony(rpID: rpID, origin: origin) }
}

extension ServerProcess {
    /// `POST /auth/passkeys/register/options`; expects 200.
    func registrationOptions(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> PasskeyCreationOptions {
        let reply = try await client.send("POST", "/auth/passkeys/register/options", token: token)
        try #require(reply.status == 200, "options: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(PasskeyCreationOptions.self)
    }

    /// `POST /auth/passkeys/login/options`; expects 200.
    func loginOptions(sourceLocation: SourceLocation = #_sourceLocation) async throws -> PasskeyRequestOptions {
        let reply = try await client.send("POST", "/auth/passkeys/login/options")
        try #require(reply.status == 200, "options: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(PasskeyRequestOptions.self)
    }

    /// A new software passkey of `algorithm` for the account behind `token`, made for fresh options
    /// (its user handle theirs).
    func newPasskey(
        _ token: String, _ algorithm: SoftwareAuthenticator.Algorithm = .es256, counts: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (SoftwareAuthenticator, challenge: [UInt8]) {
        let options = try await registrationOptions(token, sourceLocation: sourceLocation)
        let handle = try #require(Base64URL.decode(options.user.id), sourceLocation: sourceLocation)
        let challenge = try #require(Base64URL.decode(options.challenge), sourceLocation: sourceLocation)
        return (SoftwareAuthenticator(algorithm: algorithm, userHandle: handle, counts: counts), challenge)
    }

    /// `POST /auth/passkeys/register` with what `passkey` made for `challenge` and the step-up `proof`'s members.
    func register(
        _ made: SoftwareAuthenticator.Registration, name: String = "iPhone", proof: [String: Any], token: String
    ) async throws -> Reply {
        try await client.send("POST", "/auth/passkeys/register", json: proof.merging(["name": name, "credential": made.json]) { $1 }, token: token)
    }

    /// The step-up proof of the passkey `signer` for the session of `token`: an assertion for a
    /// fresh `POST /auth/passkeys/reauth/options` challenge, as `passkey_assertion`.
    func passkeyProof(
        _ signer: inout SoftwareAuthenticator, token: String, _ ceremony: SoftwareAuthenticator.Ceremony = PasskeyServer.ceremony,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let reply = try await client.send("POST", "/auth/passkeys/reauth/options", token: token)
        try #require(reply.status == 200, "reauth options: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        let challenge = try #require(Base64URL.decode(try reply.decode(PasskeyRequestOptions.self).challenge), sourceLocation: sourceLocation)
        return ["passkey_assertion": signer.assert(challenge: challenge, ceremony).json]
    }

    /// A passkey of `algorithm` added to the account behind `token` with the step-up `proof`
    /// (`["password": …]`, or ``passkeyProof(_:token:_:sourceLocation:)`` where the account holds one); expects 201.
    func addPasskey(
        _ token: String, _ algorithm: SoftwareAuthenticator.Algorithm = .es256, name: String = "iPhone", counts: Bool = true,
        ceremony: SoftwareAuthenticator.Ceremony = PasskeyServer.ceremony, proof: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (SoftwareAuthenticator, Passkey) {
        let (passkey, challenge) = try await newPasskey(token, algorithm, counts: counts, sourceLocation: sourceLocation)
        let reply = try await register(passkey.register(challenge: challenge, ceremony), name: name, proof: proof, token: token)
        try #require(reply.status == 201, "register: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return (passkey, try reply.decode(Passkey.self))
    }

    /// `POST /auth/passkeys/login` with an assertion `passkey` signs for fresh login options.
    func passkeyLogin(_ passkey: inout SoftwareAuthenticator, _ ceremony: SoftwareAuthenticator.Ceremony = PasskeyServer.ceremony) async throws -> Reply {
        let options = try await loginOptions()
        let challenge = try #require(Base64URL.decode(options.challenge))
        return try await answer(passkey.assert(challenge: challenge, ceremony))
    }

    /// `POST /auth/passkeys/login` with `assertion`.
    func answer(_ assertion: SoftwareAuthenticator.Assertion) async throws -> Reply {
        try await client.send("POST", "/auth/passkeys/login", json: ["credential": assertion.json])
    }
}
