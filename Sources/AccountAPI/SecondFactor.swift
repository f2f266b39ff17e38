import Foundation

/// A way to answer the second-factor step of a login (`methods` of a `403 mfa_required`).
///
/// Open like ``ErrorCode``: a method added by a newer server decodes into a value an older app can
/// still carry (and skip).
public struct SecondFactorMethod: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The method as it appears on the wire (`"totp"`).
    public let rawValue: String
    /// The method with this wire text, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire text.
    public var description: String { rawValue }

    /// A 6-digit code from an authenticator app (RFC 6238: SHA-1, 30-second steps).
    public static let totp = SecondFactorMethod(rawValue: "totp")
    /// One of the account's single-use recovery codes.
    public static let recoveryCode = SecondFactorMethod(rawValue: "recovery_code")
}

/// The authentication methods (`amr`, RFC 8176) an access token names for its session.
public enum AuthenticationMethod {
    /// The password.
    public static let password = "pwd"
    /// A one-time password from an authenticator app (RFC 6238).
    public static let otp = "otp"
    /// One of the account's recovery codes (not a registered RFC 8176 value: none fits).
    public static let recoveryCode = "recovery_code"
    /// The values that name a second factor, beside the password: an authenticator code, a
    /// recovery code, or a passkey's `mfa` (possession of the key and the user's verification).
    public static let secondFactors: Set<String> = [otp, recoveryCode, multipleFactors]
}

/// The second factor of an account, as `GET /auth/me` (and every `user`) shows it.
public struct SecondFactorStatus: Codable, Hashable, Sendable {
    /// Whether logins need an authenticator-app code (or a recovery code).
    public let totp: Bool
    /// Unused recovery codes (0 while `totp` is off).
    public let recoveryCodesLeft: Int

    /// The status as the server describes it.
    public init(totp: Bool, recoveryCodesLeft: Int) {
        self.totp = totp
        self.recoveryCodesLeft = recoveryCodesLeft
    }

    enum CodingKeys: String, CodingKey {
        case totp
        case recoveryCodesLeft = "recovery_codes_left"
    }
}

/// Reply of `POST /auth/mfa/totp`: the new secret, for the app to show as a QR code or text.
public struct TOTPEnrollment: Codable, Hashable, Sendable {
    /// The secret in base32 (RFC 4648, no padding), for typing into an authenticator app.
    public let secret: String
    /// `otpauth://totp/<issuer>:<nickname>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`,
    /// what authenticator apps read from a QR code.
    public let otpauthURI: String

    /// An enrolment as the server sends it.
    public init(secret: String, otpauthURI: String) {
        self.secret = secret
        self.otpauthURI = otpauthURI
    }

    enum CodingKeys: String, CodingKey {
        case secret
        case otpauthURI = "otpauth_uri"
    }
}

/// `POST /auth/mfa/totp/confirm`: the first code from the authenticator app turns the factor on.
public struct TOTPConfirmRequest: Codable, Hashable, Sendable {
    /// The 6-digit code the app shows now.
    public var code: String?

    /// - Parameter code: the 6-digit code the app shows now.
    public init(code: String) { self.code = code }
}

/// Reply of `POST /auth/mfa/totp/confirm` and `POST /auth/mfa/recovery-codes`: a new set of
/// single-use recovery codes, shown once.
public struct RecoveryCodes: Codable, Hashable, Sendable {
    /// Ten codes (`xxxxx-xxxxx`); each works once, in place of an authenticator code.
    public let recoveryCodes: [String]

    /// - Parameter recoveryCodes: the new codes.
    public init(recoveryCodes: [String]) { self.recoveryCodes = recoveryCodes }

    enum CodingKeys: String, CodingKey {
        case recoveryCodes = "recovery_codes"
    }
}

/// `POST /auth/mfa/verify`: answers a login's `mfa_required` with one of the two factors.
public struct SecondFactorVerifyRequest: Codable, Hashable, Sendable {
    /// The `mfa_token` of the `403 mfa_required` reply.
    public var mfaToken: String?
    /// A 6-digit authenticator code; give this or `recoveryCode`.
    public var code: String?
    /// A recovery code; give this or `code`.
    public var recoveryCode: String?

    /// Give exactly one of `code` and `recoveryCode`.
    public init(mfaToken: String, code: String? = nil, recoveryCode: String? = nil) {
        self.mfaToken = mfaToken
        self.code = code
        self.recoveryCode = recoveryCode
    }

    enum CodingKeys: String, CodingKey {
        case mfaToken = "mfa_token"
        case code
        case recoveryCode = "recovery_code"
    }
}

// MARK: Printing without secrets

extension TOTPEnrollment: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> { ["secret": Redaction.hidden, "otpauthURI": Redaction.hidden] }
}

extension TOTPConfirmRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> { ["code": Redaction.secret(code)] }
}

extension RecoveryCodes: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> { ["recoveryCodes": "<\(recoveryCodes.count) redacted>"] }
}

extension SecondFactorVerifyRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["mfaToken": Redaction.secret(mfaToken), "code": Redaction.secret(code), "recoveryCode": Redaction.secret(recoveryCode)]
    }
}
