#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The account screens in one view: login or profile from the session's state, with sign-up,
/// email verification and password reset pushed above them through one ``AccountNavigator``.
///
/// While the state is still unknown (the Keychain is locked at launch) it shows a quiet
/// placeholder, never the login screen; it reads the store again each time the app becomes active.
///
/// ```swift
/// let session = SessionManager(client: AccountClient(), store: KeychainCredentialStore())
/// AccountRootView(session: session)
/// ```
public struct AccountRootView: View {
    let session: SessionManager
    @State private var navigator = AccountNavigator()
    @State private var screen: RootScreen = .waiting
    @Environment(\.scenePhase) private var scenePhase

    /// - Parameter session: the app's one session manager.
    public init(session: SessionManager) {
        self.session = session
    }

    public var body: some View {
        NavigationStack(path: $navigator.path) {
            root
                .navigationDestination(for: AccountRoute.self) { route in
                    AccountDestinationView(route: route, session: session)
                }
        }
        .environment(navigator)
        .task {
            // A locked Keychain throws here and leaves the state unknown: the placeholder stays.
            _ = try? await session.restore()
            for await state in await session.stateUpdates() {
                screen = AccountNavigation.root(for: state)
                navigator.popToRoot()
            }
        }
        .onChange(of: scenePhase) { _, phase in
            guard phase == .active else { return }
            Task { _ = try? await session.restore() }
        }
    }

    @ViewBuilder private var root: some View {
        switch screen {
        case .waiting:
            ProgressView()
                .accessibilityLabel(AccountUIStrings.text(.loading, session.client.language))
        case .logIn:
            LoginScreen(session: session)
        case .profile(let user):
            ProfileScreen(session: session, user: user)
        }
    }
}
#endif
