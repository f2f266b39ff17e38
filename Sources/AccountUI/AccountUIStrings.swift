import AccountAPI
import Foundation

/// The screens' own words, from the String Catalog `Resources/Localizable.xcstrings` (English and
/// Korean), in the client's ``Language``, which follows the app's own localizations.
///
/// Field errors and server messages come from AccountKit's models already in that language; the
/// catalog holds titles, labels and button names. The catalog is looked up in the language's own
/// `.lproj` rather than by the device's list, so the screens and the models' messages always agree;
/// a word the catalog lacks shows in English (its key).
///
/// ```swift
/// Text(AccountUIStrings.text(.logIn, .ko))   // "로그인"
/// ```
public enum AccountUIStrings {
    /// A word or phrase of the screens; the raw value is its key in the catalog (the English text).
    public enum Key: String, CaseIterable, Sendable {
        case logIn = "Log in"
        case signUp = "Sign up"
        case forgotPassword = "Forgot your password?"
        case noAccount = "New here? Create an account"
        case identifier = "Nickname or email"
        case nicknamePlaceholder = "e.g. jiwoo"
        case identifierPlaceholder = "jiwoo or name@example.com"
        case password = "Password"
        case passwordAgain = "Password again"
        case newPassword = "New password"
        case nickname = "Nickname"
        case email = "Email"
        case code = "6-digit code"
        case mbti = "MBTI"
        case chooseMBTI = "Choose…"
        case createAccount = "Create account"
        case sendCode = "Send code"
        case verify = "Verify"
        case resend = "Send a new code"
        case changeEmail = "Use another address"
        case cancel = "Cancel"
        case cancelSignUpTitle = "Cancel sign-up?"
        case cancelSignUpMessage = "What you entered will be lost."
        case discard = "Cancel sign-up"
        case keepEditing = "Keep editing"
        case profile = "Profile"
        case verified = "Verified"
        case notVerified = "Not verified"
        case edit = "Edit"
        case save = "Save"
        case logOut = "Log out"
        case logOutTitle = "Log out?"
        case logOutMessage = "You can log in again with your nickname or email."
        case logOutEverywhere = "Log out everywhere"
        case logOutEverywhereTitle = "Log out everywhere?"
        case logOutEverywhereMessage = "Every device signed in to this account will be logged out."
        case sessions = "Signed-in devices"
        case thisDevice = "This device"
        case unknownDevice = "Unknown device"
        case logOutDevice = "Log out %@"
        case logOutDeviceTitle = "Log out “%@”?"
        case logOutDeviceMessage = "That device will have to log in again."
        case lastUsed = "Last used"
        case loading = "Loading"
        case warning = "Warning"
        case resetPassword = "Reset password"
        case setPassword = "Set new password"
        case passwordChanged = "Your password is changed. Log in with the new one."
        case codeSentTo = "We sent a code to %@."
        case emailCodeTitle = "Verify your email"
        case verifyEmailHint = "Enter the code from the email."
        case signUpEmailHint = "Start with your email address: we send a 6-digit code to prove it is yours."
        case verifiedEmail = "Verified email"
        case verifyAgain = "Verify the address again"
        case submitHint = "If a field is not filled in yet, pressing it says which."
        case done = "Done"
        case next = "Next"
        case tryAgain = "Try again"
        case resendIn = "Resend in %lld s"
        // The second factor: enrolment, recovery codes, the login step, the profile switch.
        case twoStepVerification = "Two-step verification"
        case twoStepOffHint = "Protect your account with a code from an authenticator app after your password."
        case setUpAuthenticator = "Set up an authenticator app"
        case continueAction = "Continue"
        case qrCodeLabel = "QR code for your authenticator app"
        case setupKey = "Setup key"
        case copy = "Copy"
        case copied = "Copied"
        case openInAuthenticator = "Open in authenticator app"
        case noAuthenticatorApp = "No app on this device opens authenticator links. Scan the QR code or enter the setup key instead."
        case authenticatorCode = "Authenticator code"
        case turnOn = "Turn on"
        case recoveryCodes = "Recovery codes"
        case copyAll = "Copy all"
        case share = "Share"
        case savedRecoveryCodes = "I saved these codes somewhere safe"
        case savedRecoveryCodesHint = "Done is enabled once you confirm you saved the codes."
        case position = "%lld of %lld"
        case newRecoveryCodes = "Get new recovery codes"
        case turnOff = "Turn off"
        case turnOffHint = "Logins will no longer ask for a code from your authenticator app."
        case recoveryCode = "Recovery code"
        case useRecoveryCode = "Use a recovery code"
        case useAuthenticatorCode = "Use a code from the app"
        case backToPassword = "Back to password"
        case replacesRecoveryCodes = "The codes you have now will stop working."
        // Passkeys and Sign in with Apple: the login buttons, the profile's sections, the new account's step.
        case logInWithPasskey = "Log in with a passkey"
        case passkeys = "Passkeys"
        case passkeysHint = "Log in with Face ID or Touch ID instead of your password. A passkey stays on your devices and syncs with iCloud Keychain."
        case addPasskey = "Add a passkey"
        case passkeyName = "Passkey name"
        case passkeyNameMessage = "Name this device's passkey so you can tell it apart in this list."
        case add = "Add"
        case removePasskey = "Remove passkey"
        case remove = "Remove"
        case added = "Added"
        case notUsedYet = "Not used yet"
        case signInWithApple = "Sign in with Apple"
        case linked = "Linked"
        case notLinked = "Not linked"
        case linkApple = "Link your Apple ID"
        case unlinkApple = "Unlink your Apple ID"
        case unlinkAppleTitle = "Unlink your Apple ID?"
        case unlinkAppleMessage = "You will no longer be able to sign in with Apple."
        case appleHint = "Sign in with the Apple ID on your devices, without a password."
        case finishSignUp = "Finish signing up"
        case emailFromApple = "Email from Apple"
        case confirmWithApple = "Confirm with Apple"
        // The step-up proof of every change of how the account signs in; a new password, deleting the account.
        case confirmWithPasskey = "Confirm with a passkey"
        case usePasskeyInstead = "Use a passkey instead"
        case usePasswordInstead = "Use your password instead"
        case useAppleInstead = "Use Apple instead"
        case currentPassword = "Current password"
        case changePassword = "Change password"
        case deleteAccount = "Delete account"
    }

    /// The text of `key` in `language`.
    public static func text(_ key: Key, _ language: Language) -> String {
        table(language)?.localizedString(forKey: key.rawValue, value: key.rawValue, table: "Localizable") ?? key.rawValue
    }

    /// "Resend in 42 s", in `language`.
    public static func resendIn(_ seconds: Int, _ language: Language) -> String {
        String(format: text(.resendIn, language), locale: Locale(identifier: language.rawValue), seconds)
    }

    /// "We sent a code to minsu@example.com.", in `language`.
    public static func codeSent(to email: String, _ language: Language) -> String {
        String(format: text(.codeSentTo, language), locale: Locale(identifier: language.rawValue), email)
    }

    /// "Log out iPhone" (a sessions list row's button, for VoiceOver), in `language`.
    public static func logOutDevice(_ name: String, _ language: Language) -> String {
        String(format: text(.logOutDevice, language), locale: Locale(identifier: language.rawValue), name)
    }

    /// "Log out “iPhone”?" (the question before another device is logged out), in `language`.
    public static func logOutDeviceTitle(_ name: String, _ language: Language) -> String {
        String(format: text(.logOutDeviceTitle, language), locale: Locale(identifier: language.rawValue), name)
    }

    /// "3 of 10" (a recovery code's place in its list, for VoiceOver), in `language`.
    public static func position(_ index: Int, of count: Int, _ language: Language) -> String {
        String(format: text(.position, language), locale: Locale(identifier: language.rawValue), index, count)
    }

    /// The `.lproj` of `language` in the module's resources, if it has one.
    private static func table(_ language: Language) -> Bundle? {
        resources?.path(forResource: language.rawValue, ofType: "lproj").flatMap(Bundle.init(path:))
    }

    #if SWIFT_MODULE_RESOURCE_BUNDLE_AVAILABLE
    private static let resources: Bundle? = .module
    #else
    // Build systems that do not say whether they generated `Bundle.module` (Xcode 16, and the iOS
    // type-check, which compiles no generated code): look where those accessors look.
    private static let resources: Bundle? = {
        let name = "MBTIPlayground_AccountUI.bundle"
        let places = [Bundle.main.resourceURL, Bundle(for: BundleToken.self).resourceURL, Bundle.main.bundleURL]
        return places.lazy.compactMap { $0.flatMap { Bundle(url: $0.appendingPathComponent(name)) } }.first
    }()

    private final class BundleToken {}
    #endif
}
