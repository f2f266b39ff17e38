import Foundation

/// The fresh proof every change of how an account proves who it is asks for (a step-up): adding
/// or removing a passkey, linking or unlinking Apple, turning the second factor on or off, new
/// recovery codes, a new password, deleting the account.
///
/// It proves the strongest the account holds:
/// - a `passkeyAssertion` of one of the account's passkeys (for a challenge of
///   `POST /auth/passkeys/reauth/options`), which is both factors in one; or
/// - the `password` (an account without one: a fresh `appleIdentityToken` and `appleNonce` of its
///   linked Apple ID), with a `code` or `recoveryCode` while the second factor is on.
///
/// An account that holds a passkey and no authenticator app proves with a passkey. Turning the
/// second factor off always takes a code or a recovery code, new recovery codes a code. The
/// members sit at the top level of each request's JSON, beside its own.
public struct StepUpProof: Codable, Hashable, Sendable {
    /// The account's current password.
    public var password: String?
    /// An assertion of one of the account's passkeys, instead of the password.
    public var passkeyAssertion: PasskeyAssertionCredential?
    /// For an account without a password: a fresh identity token of its linked Apple ID.
    public var appleIdentityToken: String?
    /// The raw nonce of `appleIdentityToken`.
    public var appleNonce: String?
    /// While the second factor is on: a 6-digit authenticator code (or give `recoveryCode`).
    public var code: String?
    /// While the second factor is on: a recovery code, instead of `code`.
    public var recoveryCode: String?

    /// No proof at all (what a request without one decodes to).
    public init() {}

    /// The password, and while the second factor is on a code or a recovery code.
    public init(password: String, code: String? = nil, recoveryCode: String? = nil) {
        self.password = password
        self.code = code
        self.recoveryCode = recoveryCode
    }

    /// For an account without a password: a fresh Apple identity token and its raw nonce where the
    /// password would go.
    public init(appleIdentityToken: String, appleNonce: String, code: String? = nil, recoveryCode: String? = nil) {
        self.appleIdentityToken = appleIdentityToken
        self.appleNonce = appleNonce
        self.code = code
        self.recoveryCode = recoveryCode
    }

    /// With a passkey instead of the password: an assertion for a reauthentication challenge.
    public init(passkeyAssertion: PasskeyAssertionCredential, code: String? = nil, recoveryCode: String? = nil) {
        self.passkeyAssertion = passkeyAssertion
        self.code = code
        self.recoveryCode = recoveryCode
    }

    /// Whether any member is given.
    public var isEmpty: Bool { self == StepUpProof() }

    /// The wire names; `password` is `current_password` in `POST /auth/password/change`.
    public enum Member: String, CaseIterable, Sendable {
        case password
        case passkeyAssertion = "passkey_assertion"
        case appleIdentityToken = "apple_identity_token"
        case appleNonce = "apple_nonce"
        case code
        case recoveryCode = "recovery_code"
    }

    public init(from decoder: any Decoder) throws { try self.init(from: decoder, passwordKey: Member.password.rawValue) }

    public func encode(to encoder: any Encoder) throws { try encode(to: encoder, passwordKey: Member.password.rawValue) }

    /// Decodes the members from the top level of `decoder`'s object, the password under `passwordKey`.
    package init(from decoder: any Decoder, passwordKey: String) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        func string(_ member: Member) throws -> String? {
            try container.decodeIfPresent(String.self, forKey: WireKey(member == .password ? passwordKey : member.rawValue))
        }
        password = try string(.password)
        passkeyAssertion = try container.decodeIfPresent(PasskeyAssertionCredential.self, forKey: WireKey(Member.passkeyAssertion.rawValue))
        appleIdentityToken = try string(.appleIdentityToken)
        appleNonce = try string(.appleNonce)
        code = try string(.code)
        recoveryCode = try string(.recoveryCode)
    }

    /// Encodes the given members into the top level of `encoder`'s object, the password under `passwordKey`.
    package func encode(to encoder: any Encoder, passwordKey: String) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encodeIfPresent(password, forKey: WireKey(passwordKey))
        try container.encodeIfPresent(passkeyAssertion, forKey: WireKey(Member.passkeyAssertion.rawValue))
        try container.encodeIfPresent(appleIdentityToken, forKey: WireKey(Member.appleIdentityToken.rawValue))
        try container.encodeIfPresent(appleNonce, forKey: WireKey(Member.appleNonce.rawValue))
        try container.encodeIfPresent(code, forKey: WireKey(Member.code.rawValue))
        try container.encodeIfPresent(recoveryCode, forKey: WireKey(Member.recoveryCode.rawValue))
    }

    /// A coding key by its wire name.
    struct WireKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// `DELETE /auth/me`: removes the account, with the step-up proof.
public typealias DeleteAccountRequest = StepUpProof
/// `POST /auth/mfa/totp`: starts (or restarts) enrolling an authenticator app, with the step-up proof.
public typealias TOTPEnrollRequest = StepUpProof
/// `DELETE /auth/mfa/totp`: turns the second factor off, with the step-up proof (a code or a
/// recovery code always).
public typealias TOTPDisableRequest = StepUpProof
/// `POST /auth/mfa/recovery-codes`: a new set of recovery codes, with the step-up proof (an
/// authenticator `code` always).
public typealias RecoveryCodesRequest = StepUpProof
/// `DELETE /auth/passkeys/{id}`: removes one of the account's passkeys, with the step-up proof.
public typealias PasskeyDeleteRequest = StepUpProof
/// `DELETE /auth/apple/link`: unlinks the account's Apple ID, with the step-up proof.
public typealias AppleUnlinkRequest = StepUpProof

// MARK: Printing without secrets

extension StepUpProof: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["password": Redaction.secret(password), "passkeyAssertion": passkeyAssertion == nil ? Optional<String>.none as Any : Redaction.hidden,
         "appleIdentityToken": Redaction.secret(appleIdentityToken), "appleNonce": Redaction.secret(appleNonce),
         "code": Redaction.secret(code), "recoveryCode": Redaction.secret(recoveryCode)]
    }
}
