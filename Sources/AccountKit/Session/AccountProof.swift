import AccountAPI
import Foundation

/// How the signed-in person proves it is them for a sensitive change (removing a passkey): the
/// account's password; one of its passkeys (``SessionManager/passkeyProof(using:secondFactor:)``,
/// any account, and the only way for one with neither a password nor Apple); or, for an account
/// made with Apple (no password), a fresh Apple identity token
/// (``SessionManager/appleProof(using:secondFactor:)``); with the second factor while it is on.
///
/// Prints without its secrets.
///
/// ```swift
/// try await session.removePasskey(id: passkey.id, proof: .password("correct horse battery"))
/// try await session.removePasskey(id: passkey.id, proof: .password("correct horse battery", code: "123456"))
/// ```
public struct AccountProof: Sendable, Hashable {
    /// Who the person is.
    public enum Identity: Sendable, Hashable {
        /// The account's password.
        case password(String)
        /// A fresh identity token from Apple's sheet and the raw nonce hashed into it.
        case apple(identityToken: String, nonce: String)
        /// A passkey's assertion for the session's reauthentication challenge (single use).
        case passkey(PasskeyAssertionCredential)
    }

    /// Who the person is.
    public var identity: Identity
    /// The second factor, while it is on; `nil` otherwise.
    public var secondFactor: SecondFactorEntry?

    /// A proof of `identity`, with `secondFactor` while one is on.
    public init(_ identity: Identity, secondFactor: SecondFactorEntry? = nil) {
        self.identity = identity
        self.secondFactor = secondFactor
    }

    /// The password, with an authenticator `code` or a `recoveryCode` while the second factor is on.
    public static func password(_ password: String, code: String? = nil, recoveryCode: String? = nil) -> AccountProof {
        let factor = code == nil && recoveryCode == nil ? nil : SecondFactorEntry(code: code, recoveryCode: recoveryCode)
        return AccountProof(.password(password), secondFactor: factor)
    }

    /// The second factor's fields as sent: the method in use, the other `nil`.
    var factor: (code: String?, recoveryCode: String?) { secondFactor?.wire ?? (nil, nil) }

    /// The body of `DELETE /auth/passkeys/{id}`.
    var passkeyDeleteRequest: PasskeyDeleteRequest {
        switch identity {
        case .password(let password): PasskeyDeleteRequest(password: password, code: factor.code, recoveryCode: factor.recoveryCode)
        case .apple(let token, let nonce):
            PasskeyDeleteRequest(appleIdentityToken: token, appleNonce: nonce, code: factor.code, recoveryCode: factor.recoveryCode)
        case .passkey(let assertion): PasskeyDeleteRequest(passkeyAssertion: assertion, code: factor.code, recoveryCode: factor.recoveryCode)
        }
    }
}

extension AccountProof: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The proof's kind, without its secrets.
    public var description: String {
        let kind = switch identity {
        case .password: "password"
        case .apple: "apple"
        case .passkey: "passkey"
        }
        return "AccountProof(\(kind), secondFactor: \(secondFactor.map { String(describing: $0) } ?? "nil"))"
    }
    /// The proof's kind, without its secrets.
    public var debugDescription: String { description }
    /// The proof's kind, without its secrets, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }
}
