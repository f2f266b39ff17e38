import Foundation

/// Whether this is the first launch since the app was installed.
///
/// iOS keeps Keychain items when an app is deleted, but not its `UserDefaults`; a flag there tells
/// a reinstall apart from an ordinary launch, so a session left from before can be checked first.
///
/// ```swift
/// let launch = AccountLaunch(session: session, installation: .userDefaults())
/// ```
public struct InstallationMarker: Sendable {
    /// Whether nothing has marked this installation yet.
    public var isFirstLaunch: @Sendable () -> Bool
    /// Marks this installation as launched.
    public var markLaunched: @Sendable () -> Void

    /// A marker from two closures (tests keep it in memory).
    public init(isFirstLaunch: @escaping @Sendable () -> Bool, markLaunched: @escaping @Sendable () -> Void) {
        self.isFirstLaunch = isFirstLaunch
        self.markLaunched = markLaunched
    }

    /// A flag under `key` in `UserDefaults.standard`, which is deleted with the app.
    public static func userDefaults(key: String = "mbti-playground.installation-launched") -> InstallationMarker {
        InstallationMarker(
            isFirstLaunch: { !UserDefaults.standard.bool(forKey: key) },
            markLaunched: { UserDefaults.standard.set(true, forKey: key) })
    }

    /// Every launch is an ordinary one: for stores that do not outlive the app (a file, memory).
    public static let never = InstallationMarker(isFirstLaunch: { false }, markLaunched: {})
}
