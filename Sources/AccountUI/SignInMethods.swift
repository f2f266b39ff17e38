#if canImport(SwiftUI)
import AccountKit

/// The ways to log in the screens offer beside the password: the login screen's buttons and the
/// profile's sections for them. Each needs the app's entitlement and a server set up for it (see
/// `Examples/PlaygroundApp/README.md`), so none is on by default.
///
/// ```swift
/// AccountRootView(session: session, signInMethods: [.passkeys, .apple])
/// ```
public struct SignInMethods: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Passkeys: "Log in with a passkey" on the login screen, and the profile's list with "Add a
    /// passkey". The app needs Associated Domains `webcredentials:<the server's RP id>`.
    public static let passkeys = SignInMethods(rawValue: 1 << 0)
    /// Sign in with Apple: its button on the login screen, the new account's nickname step, and
    /// linking in the profile. The app needs the Sign in with Apple capability.
    public static let apple = SignInMethods(rawValue: 1 << 1)

    /// The device's passkeys when they are offered.
    @MainActor var passkeyAuthorizer: PasskeyAuthorizer? { contains(.passkeys) ? .platform() : nil }

    /// Apple's sheet when Sign in with Apple is offered.
    @MainActor var appleAuthorizer: AppleSignInAuthorizer? { contains(.apple) ? .platform() : nil }
}
#endif
