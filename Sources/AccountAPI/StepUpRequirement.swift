import Foundation

/// A change of how the account proves who it is: each needs a fresh ``StepUpProof`` (a step-up),
/// and the owner is mailed a notice of it. The server and the SDK decide what it asks by one rule
/// (``StepUpRequirement``).
public enum SensitiveChange: String, Sendable, Hashable, CaseIterable {
    /// Adding a passkey (`POST /auth/passkeys/register`).
    case addPasskey
    /// Removing a passkey (`DELETE /auth/passkeys/{id}`).
    case removePasskey
    /// Linking an Apple ID (`POST /auth/apple/link`).
    case linkApple
    /// Unlinking the Apple ID (`DELETE /auth/apple/link`).
    case unlinkApple
    /// Turning the second factor on (`POST /auth/mfa/totp`).
    case enableSecondFactor
    /// Turning the second factor off (`DELETE /auth/mfa/totp`): always with a code or a recovery
    /// code.
    case disableSecondFactor
    /// A new set of recovery codes (`POST /auth/mfa/recovery-codes`): always with an authenticator
    /// code.
    case replaceRecoveryCodes
    /// A new password (`POST /auth/password/change`).
    case changePassword
    /// Deleting the account (`DELETE /auth/me`).
    case deleteAccount
}

/// What a ``SensitiveChange`` asks the signed-in account to prove: the strongest it holds. The
/// server checks proofs by this rule, and the SDK asks for what it says.
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
    /// passkey when `holdsPasskey` (`GET /auth/passkeys` lists them). A server from before
    /// `has_password` has passwords on every account; one from before `apple_linked` that says an
    /// account has no password means Apple.
    public init(change: SensitiveChange, user: User, holdsPasskey: Bool) {
        let hasPassword = user.hasPassword != false
        self.init(
            change: change, secondFactorOn: user.mfa?.totp == true, hasPassword: hasPassword,
            appleLinked: user.appleLinked ?? !hasPassword, holdsPasskey: holdsPasskey)
    }

    /// Whether only a passkey proves it: the account holds one and no second factor, so its
    /// password (or Apple) alone never adds, removes or outranks a passkey.
    public var passkeyOnly: Bool { holdsPasskey && !secondFactorOn }

    /// What a form asks first: a passkey when the account holds one and no second factor (or has
    /// neither a password nor Apple), else the password, else Apple.
    public var identity: Identity {
        if passkeyOnly { return .passkey }
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
}
