#if canImport(SwiftUI)
import AccountKit
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

/// What a ``SignupTextFieldView`` asks for; sets its keyboard, content type, secure entry and
/// capitalization.
public enum SignupFieldKind: Sendable, Hashable {
    /// A nickname (Korean or Latin letters, digits); the account's user name for password managers.
    case nickname
    /// An email address.
    case email
    /// A 6-digit one-time code: from an email, or from an authenticator app (which AutoFill can
    /// fill when the password manager keeps the account's authenticator key).
    case code
    /// One of the account's recovery codes (`xxxxx-xxxxx`): letters and digits, never AutoFilled.
    case recoveryCode
    /// The current password (login).
    case password
    /// A password being chosen (sign-up, reset), offered for strong-password autofill.
    case newPassword
    /// A nickname or an email address (login).
    case identifier

    /// Whether the text is hidden as it is typed.
    public var isSecure: Bool { self == .password || self == .newPassword }

    /// Whether the field shows a number pad, which has no return key (so the screen offers "Done").
    public var usesNumberPad: Bool { self == .code }

    /// What shows inside the empty field, in `language`: an example of what it takes, since the
    /// title above names the field already; nothing for a password.
    public func placeholder(_ language: Language) -> String {
        switch self {
        case .nickname: AccountUIStrings.text(.nicknamePlaceholder, language)
        case .identifier: AccountUIStrings.text(.identifierPlaceholder, language)
        case .email: "name@example.com"
        case .code: String(repeating: "0", count: CodeRule.length)
        case .recoveryCode: "abcde-12345"
        case .password, .newPassword: ""
        }
    }

    #if os(iOS)
    /// The keyboard the field shows.
    public var keyboard: UIKeyboardType {
        switch self {
        case .email: .emailAddress
        case .code: .numberPad
        case .recoveryCode: .asciiCapable
        case .nickname, .password, .newPassword, .identifier: .default
        }
    }

    /// What AutoFill offers for the field. The sign-up nickname is the `.username` iOS saves with
    /// the new password, so the saved login names the account. Nothing for a recovery code (no
    /// content type fits; a one-time code would offer the wrong thing).
    public var contentType: UITextContentType? {
        switch self {
        case .nickname, .identifier: .username
        case .email: .emailAddress
        case .code: .oneTimeCode
        case .password: .password
        case .newPassword: .newPassword
        case .recoveryCode: nil
        }
    }
    #endif
}
#endif
