import AccountAPI
import Foundation

/// A login waiting for its second factor: what `403 mfa_required` gave, kept by
/// ``SessionManager`` until ``SessionManager/verifySecondFactor(code:)`` (or
/// ``SessionManager/verifySecondFactor(recoveryCode:)``) finishes the login.
///
/// Prints without its token.
///
/// ```swift
/// do {
///     try await session.logIn(.identifier("민수", password: "correct horse battery"))
/// } catch AccountError.secondFactorRequired(let challenge) {
///     // ask for the authenticator code; challenge.acceptsRecoveryCode offers the other way
///     try await session.verifySecondFactor(code: "123456")
/// }
/// ```
public struct SecondFactorChallenge: Sendable, Hashable {
    /// The opaque, single-use token `POST /auth/mfa/verify` takes (`mfa_token`).
    public let mfaToken: String
    /// The ways the server accepts now (`totp`, and `recovery_code` while some are left).
    public let methods: [SecondFactorMethod]
    /// When this device received it, by its own clock.
    public let receivedAt: Date
    /// Wrong codes sent for it so far (counted by ``SessionManager``).
    public internal(set) var wrongCodes: Int

    /// How long the server keeps a challenge: 5 minutes (the contract's number).
    public static let lifetime: TimeInterval = 300
    /// Wrong codes that spend a challenge: 5 (the contract's number).
    public static let maxWrongCodes = 5

    /// - Parameters:
    ///   - mfaToken: the problem's `mfa_token`.
    ///   - methods: the problem's `methods`.
    ///   - receivedAt: when the reply arrived, by this device's clock.
    ///   - wrongCodes: wrong codes sent for it so far.
    public init(mfaToken: String, methods: [SecondFactorMethod], receivedAt: Date = Date(), wrongCodes: Int = 0) {
        self.mfaToken = mfaToken
        self.methods = methods
        self.receivedAt = receivedAt
        self.wrongCodes = wrongCodes
    }

    /// When the server stops accepting it (at the latest), by this device's clock.
    public var expiresAt: Date { receivedAt.addingTimeInterval(Self.lifetime) }

    /// Whether its time is over at `now`: the server refuses it by then, so log in again.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Wrong codes still allowed before the server spends it.
    public var attemptsLeft: Int { max(0, Self.maxWrongCodes - wrongCodes) }

    /// Whether a code from the authenticator app answers it.
    public var acceptsAuthenticatorCode: Bool { methods.isEmpty || methods.contains(.totp) }

    /// Whether a recovery code answers it (the account has some left).
    public var acceptsRecoveryCode: Bool { methods.contains(.recoveryCode) }

    /// The same challenge as received at `date` (the SDK stamps it with its clock).
    func received(at date: Date) -> SecondFactorChallenge {
        SecondFactorChallenge(mfaToken: mfaToken, methods: methods, receivedAt: date, wrongCodes: wrongCodes)
    }
}

extension SecondFactorChallenge: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["mfaToken": Redaction.hidden, "methods": methods.map(\.rawValue), "receivedAt": receivedAt, "wrongCodes": wrongCodes]
    }
}
