import AccountAPI
import Foundation
import TestSupport
import Testing

/// An account with its authenticator app turned on.
struct SecondFactorAccount: Sendable {
    let account: TestAccount
    /// The session of the enrolment (kept by the confirmation; every other one ends).
    let pair: TokenPair
    let secret: [UInt8]
    let recoveryCodes: [String]

    /// The authenticator's code at `date` (a time ``TestClock/nextStep()`` returned).
    func code(at date: Date) -> String { TOTPGenerator.code(secret: secret, at: date) }
}

extension ServerProcess {
    /// `POST /auth/mfa/totp` then `/confirm` with the tests' own code, on a new verified account.
    func accountWithSecondFactor(_ tag: String, clock: TestClock, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SecondFactorAccount {
        let (account, pair) = try await verifiedAccount(tag, sourceLocation: sourceLocation)
        let enrolment = try await client.send("POST", "/auth/mfa/totp", model: TOTPEnrollRequest(password: account.password), token: pair.access)
        try #require(enrolment.status == 200, "enrol: \(enrolment.text)", sourceLocation: sourceLocation)
        let secret = try #require(TOTPGenerator.base32Decode(try enrolment.decode(TOTPEnrollment.self).secret), sourceLocation: sourceLocation)
        let code = TOTPGenerator.code(secret: secret, at: clock.nextStep())
        let confirmed = try await client.send("POST", "/auth/mfa/totp/confirm", model: TOTPConfirmRequest(code: code), token: pair.access)
        try #require(confirmed.status == 200, "confirm: \(confirmed.text)", sourceLocation: sourceLocation)
        return SecondFactorAccount(account: account, pair: pair, secret: secret, recoveryCodes: try confirmed.decode(RecoveryCodes.self).recoveryCodes)
    }

    /// `POST /auth/login` with the right password of an account with a second factor: its
    /// `mfa_required` problem (expects 403).
    func challenge(_ account: TestAccount, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Problem {
        let reply = try await client.send("POST", "/auth/login", model: LoginRequest(username: account.username, password: account.password))
        try #require(reply.status == 403 && reply.problem?.code == .mfaRequired, "login: \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return try #require(reply.problem, sourceLocation: sourceLocation)
    }

    /// `POST /auth/mfa/verify`.
    func answer(_ token: String?, code: String? = nil, recoveryCode: String? = nil) async throws -> Reply {
        var body: [String: Any] = [:]
        if let token { body["mfa_token"] = token }
        if let code { body["code"] = code }
        if let recoveryCode { body["recovery_code"] = recoveryCode }
        return try await client.send("POST", "/auth/mfa/verify", json: body)
    }
}
