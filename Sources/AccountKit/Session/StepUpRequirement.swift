import AccountAPI
import Foundation

/// A change of how the account proves who it is: each needs a fresh ``AccountProof`` (a step-up),
/// and the owner is mailed a notice of it.
public enum SensitiveChange: String, Sendable, Hashable, CaseIterable {
    /// Adding a passkey (``SessionManager/addPasskey(named:using:proof:)``).
    case addPasskey
    /// Removing a passkey (``SessionManager/removePasskey(id:proof:)``).
    case removePasskey
    /// Linking an Apple ID (``SessionManager/linkApple(using:proof:)``).
    case linkApple
    /// Unlinking the Apple ID (``SessionManager/unlinkApple(proof:)``).
    case unlinkApple
    /// Turning the second factor on (``SessionManager/enrollTOTP(proof:)``).
    case enableSecondFactor
    /// Turning the second factor off (``SessionManager/disableTOTP(proof:)``): always with a code
    /// or a recovery code.
    case disableSecondFactor
    /// A new set of recovery codes (``SessionManager/replaceRecoveryCodes(proof:)``): always with
    /// an authenticator code.
    case replaceRecoveryCodes
    /// A new password (``SessionManager/changePassword(newPassword:proof:)``).
    case changePassword
    /// Deleting the account (``SessionManager/deleteAccount(proof:)``).
    case deleteAccount
}

/// What a ``SensitiveChange`` asks the signed-in account to prove, by the rule the server applies:
/// the strongest the account holds.
///
/// - A passkey of the account proves both factors in one, for any change (with the second factor
///   still for turning it off or new recovery codes).
/// - Otherwise the password, or for an account without one the Apple ID it has linked, with a
///   code or a recovery code while the second factor is on.
/// - An account that holds a passkey and no second factor proves with a passkey (its password
///   alone is refused), as does one with neither a password nor Apple.
/// - Turning the second factor off always takes a code or a recovery code; new recovery codes an
///   authenticator code.
///
/// ```swift
/// let requirement = try await session.stepUpRequirement(for: .deleteAccount)
/// switch requirement.identity {
/// case .password: print("password", requirement.secondFactor(with: .password))
/// case .apple: print("Apple's sheet")
/// case .passkey: print("a passkey")
/// }
/// ```
public struct StepUpRequirement: Sendable, Hashable {
    /// What proves who the person is.
    public enum Identity: String, Sendable, Hashable, CaseIterable {
        /// The account's password.
        case password
        /// A fresh token of the account's linked Apple ID (an account without a password).
        case apple
        /// One of the account's passkeys.
        case passkey
    }

    /// The second factor a proof carries beside its identity.
    public enum SecondFactor: String, Sendable, Hashable {
        /// None.
        case none
        /// An authenticator code or a recovery code.
        case codeOrRecoveryCode
        /// An authenticator code (a recovery code cannot make new recovery codes).
        case authenticatorCode
    }

    /// The change being proven.
    public var change: SensitiveChange
    /// Whether the account's second factor is on.
    public var secondFactorOn: Bool
    /// Whether the account has a password.
    public var hasPassword: Bool
    /// Whether an Apple ID is linked to the account.
    public var appleLinked: Bool
    /// Whether the account holds a passkey.
    public var holdsPasskey: Bool

    /// The requirement of `change` for an account of these facts.
    public init(change: SensitiveChange, secondFactorOn: Bool, hasPassword: Bool, appleLinked: Bool, holdsPasskey: Bool) {
        self.change = change
        self.secondFactorOn = secondFactorOn
        self.hasPassword = hasPassword
        self.appleLinked = appleLinked
        self.holdsPasskey = holdsPasskey
    }

    /// The requirement of `change` for `user` (as the server last described it), which holds a
    /// passkey when `holdsPasskey` (``SessionManager/passkeys()`` lists them). A server from before
    /// `has_password` has passwords on every account; one from before `apple_linked` that says an
    /// account has no password means Apple.
    public init(change: SensitiveChange, user: User, holdsPasskey: Bool) {
        let hasPassword = user.hasPassword != false
        self.init(
            change: change, secondFactorOn: user.mfa?.totp == true, hasPassword: hasPassword,
            appleLinked: user.appleLinked ?? !hasPassword, holdsPasskey: holdsPasskey)
    }

    /// What a form asks first: a passkey when the account holds one and no second factor (or has
    /// neither a password nor Apple), else the password, else Apple.
    public var identity: Identity {
        if holdsPasskey && !secondFactorOn { return .passkey }
        if hasPassword { return .password }
        return appleLinked ? .apple : .passkey
    }

    /// Whether a passkey may prove it instead of ``identity`` ("use a passkey instead").
    public var acceptsPasskey: Bool { holdsPasskey || identity == .passkey }

    /// The identities the server takes for this change, ``identity`` first.
    public var identities: [Identity] {
        identity == .passkey || !acceptsPasskey ? [identity] : [identity, .passkey]
    }

    /// The second factor a proof by `identity` carries.
    public func secondFactor(with identity: Identity) -> SecondFactor {
        switch change {
        case .disableSecondFactor: .codeOrRecoveryCode
        case .replaceRecoveryCodes: .authenticatorCode
        default: secondFactorOn && identity != .passkey ? .codeOrRecoveryCode : .none
        }
    }

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
