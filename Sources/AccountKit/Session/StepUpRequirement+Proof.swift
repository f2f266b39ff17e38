import AccountAPI
import Foundation

extension StepUpRequirement {
    /// What `proof` lacks for this change (empty when the server would take its form): a passkey
    /// where a password cannot do, the password, Apple, the second factor.
    public func missing(in proof: AccountProof) -> MissingProof {
        let given: Identity = switch proof.identity {
        case .password: .password
        case .apple: .apple
        case .passkey: .passkey
        }
        var missing: MissingProof = []
        if !identities.contains(given) {
            missing.insert(MissingProof(identity))
        }
        switch secondFactor(with: given) {
        case .none: break
        case .codeOrRecoveryCode:
            if proof.secondFactor?.isComplete != true { missing.insert(.secondFactor) }
        case .authenticatorCode:
            if proof.secondFactor.map({ $0.method == .authenticatorCode && $0.isComplete }) != true { missing.insert(.secondFactor) }
        }
        return missing
    }

    /// Takes in what the server said was missing: the account changed since it was last read (a
    /// passkey added or the second factor turned on elsewhere, a password set by the reset).
    public mutating func learn(_ missing: MissingProof) {
        // The server asks for a passkey of an account that holds one and no second factor.
        if missing.contains(.passkey) { (holdsPasskey, secondFactorOn) = (true, false) }
        if missing.contains(.password) { hasPassword = true }
        if missing.contains(.apple) { (hasPassword, appleLinked) = (false, true) }
        if missing.contains(.secondFactor) { secondFactorOn = true }
    }
}

/// The parts of a step-up proof the server found missing (its `422` naming `passkey_assertion`,
/// `password`, `apple_identity_token` or `code` as `required`): ``AccountError/proofRequired(_:)``.
public struct MissingProof: OptionSet, Sendable, Hashable {
    /// The set's bits, one a member.
    public let rawValue: Int
    /// Creates a set from its raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A passkey's assertion: the account holds a passkey and no second factor, so its password
    /// alone does not do (or it has neither a password nor Apple).
    public static let passkey = MissingProof(rawValue: 1 << 0)
    /// The account's password (`password`, or `current_password` of a password change).
    public static let password = MissingProof(rawValue: 1 << 1)
    /// A fresh Apple identity token and its nonce (an account without a password).
    public static let apple = MissingProof(rawValue: 1 << 2)
    /// The second factor: an authenticator code, or a recovery code where one does.
    public static let secondFactor = MissingProof(rawValue: 1 << 3)

    /// The member for a proof by `identity`.
    init(_ identity: StepUpRequirement.Identity) {
        switch identity {
        case .password: self = .password
        case .apple: self = .apple
        case .passkey: self = .passkey
        }
    }

    /// The wire fields of a step-up proof and what each one missing means.
    static let wireFields: [String: MissingProof] = [
        StepUpProof.Member.password.rawValue: .password, "current_password": .password,
        StepUpProof.Member.passkeyAssertion.rawValue: .passkey,
        StepUpProof.Member.appleIdentityToken.rawValue: .apple, StepUpProof.Member.appleNonce.rawValue: .apple,
        StepUpProof.Member.code.rawValue: .secondFactor, StepUpProof.Member.recoveryCode.rawValue: .secondFactor,
    ]

    /// What `fields` (a `422`'s errors) say is missing of a step-up proof: its members with a
    /// `required` error.
    init(fields: [String: [FieldError]]) {
        self = []
        for (name, errors) in fields where errors.contains(where: { $0.code == .required }) {
            if let member = Self.wireFields[name] { insert(member) }
        }
    }
}

extension MissingProof: CustomStringConvertible {
    /// The members, by name: `[passkey, secondFactor]`.
    public var description: String {
        let names: [(MissingProof, String)] = [(.passkey, "passkey"), (.password, "password"), (.apple, "apple"), (.secondFactor, "secondFactor")]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
