import AccountAPI
import Foundation

/// How the signed-in person proves it is them for a change of how the account signs in (a
/// step-up): adding or removing a passkey, linking or unlinking Apple, turning the second factor on
/// or off, new recovery codes, a new password, deleting the account.
///
/// The account's password; one of its passkeys (``SessionManager/passkeyProof(using:secondFactor:)``,
/// both factors in one); or, for an account without a password, a fresh Apple identity token of its
/// linked Apple ID (``SessionManager/appleProof(using:secondFactor:)``); with the second factor
/// while it is on. Which of them a change asks for is ``StepUpRequirement``'s to say
/// (``SessionManager/stepUpRequirement(for:)``); ``StepUpForm`` asks for it on a screen.
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
    /// The second factor, while it is on (and always for turning it off or new recovery codes);
    /// `nil` otherwise.
    public var secondFactor: SecondFactorEntry?

    /// A proof of `identity`, with `secondFactor` while one is on.
    public init(_ identity: Identity, secondFactor: SecondFactorEntry? = nil) {
        self.identity = identity
        self.secondFactor = secondFactor
    }

    /// The password, with an authenticator `code` or a `recoveryCode` while the second factor is on.
    public static func password(_ password: String, code: String? = nil, recoveryCode: String? = nil) -> AccountProof {
        AccountProof(.password(password), secondFactor: SecondFactorEntry(ifAny: code, recoveryCode: recoveryCode))
    }
}

extension StepUpProof {
    /// The wire form of `proof`: the members of its identity, and the second factor's `code` or
    /// `recovery_code` (the method in use, normalized). The one conversion every call that
    /// changes how the account signs in sends.
    public init(_ proof: AccountProof) {
        let (code, recoveryCode) = proof.secondFactor?.wire ?? (nil, nil)
        switch proof.identity {
        case .password(let password): self.init(password: password, code: code, recoveryCode: recoveryCode)
        case .apple(let token, let nonce): self.init(appleIdentityToken: token, appleNonce: nonce, code: code, recoveryCode: recoveryCode)
        case .passkey(let assertion): self.init(passkeyAssertion: assertion, code: code, recoveryCode: recoveryCode)
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
