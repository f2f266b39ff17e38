#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The account screens in one view, and the one way in: login or profile from the session's
/// state, with sign-up (email first), email verification and password reset pushed above them
/// through the ``AccountNavigator`` it owns and hands to every screen.
///
/// Which root shows is ``AccountLaunch``'s decision: a quiet placeholder only while the Keychain
/// is locked (read again when the app becomes active); the login screen with what happened and a
/// retry when storage fails for good; a session left from before a reinstall is checked with the
/// server first.
///
/// ```swift
/// let client = AccountClient(baseURL: URL(string: "https://accounts.example.com")!)
/// let session = SessionManager(client: client, store: .platformDefault(appID: "com.example.mbti"))
/// AccountRootView(session: session)
/// ```
public struct AccountRootView: View {
    @State private var navigator = AccountNavigator()
    @State private var launch: AccountLaunch
    @Environment(\.scenePhase) private var scenePhase
    private let methods: SignInMethods

    /// - Parameters:
    ///   - session: the app's one session manager.
    ///   - installation: tells the first launch after an install (a flag in `UserDefaults` by default).
    ///   - signInMethods: the ways to log in offered beside the password (passkeys, Sign in with
    ///     Apple); each needs the app's entitlement and the server's flags, so none by default.
    @MainActor public init(session: SessionManager, installation: InstallationMarker = .userDefaults(), signInMethods: SignInMethods = []) {
        _launch = State(initialValue: AccountLaunch(session: session, installation: installation))
        methods = signInMethods
    }

    private var session: SessionManager { launch.session }

    /// The root screen, its navigation stack and the launch decisions.
    public var body: some View {
        NavigationStack(path: $navigator.path) {
            root
                .navigationDestination(for: AccountRoute.self) { route in
                    AccountDestinationView(route: route, session: session)
                }
        }
        .environment(navigator)
        // The screens' words follow the client's language; SwiftUI's own (and a field's "Done") too.
        .environment(\.locale, Locale(identifier: session.client.language.rawValue))
        .task {
            await launch.start()
            for await state in await session.stateUpdates() {
                let before = launch.screen
                launch.show(state)
                if AccountNavigation.popsToRoot(from: before, to: launch.screen) { navigator.popToRoot() }
            }
        }
        .onChange(of: scenePhase) { _, phase in
            guard phase == .active else { return }
            Task { await launch.becameActive() }
        }
    }

    @ViewBuilder private var root: some View {
        switch launch.screen {
        case .waiting:
            ProgressView()
                .accessibilityLabel(AccountUIStrings.text(.loading, session.client.language))
        case .logIn:
            LoginScreen(session: session, launch: launch, methods: methods)
        case .profile(let user):
            ProfileScreen(session: session, user: user, methods: methods)
        }
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
// Previews run in the simulator, in Mac Catalyst or on the Mac; `#Preview` needs Xcode's macro plugin, which the
// iOS type-check on Linux lacks, so it sees them only through `AccountPreviews`.
#Preview("Root, signed out") { AccountPreviews.root(signedIn: false) }
#Preview("Root, signed in") { AccountPreviews.root(signedIn: true) }
#Preview("루트, 로그아웃 상태") { AccountPreviews.root(signedIn: false, language: .ko) }
#Preview("루트, 로그인 상태") { AccountPreviews.root(signedIn: true, language: .ko) }
#endif
#endif
