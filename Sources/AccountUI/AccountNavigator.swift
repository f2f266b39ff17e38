#if canImport(SwiftUI)
import AccountKit
import Observation
import SwiftUI

/// The one owner of the account screens' `NavigationPath`, put in the environment by
/// ``AccountRootView`` (the screens' one way in), so no screen can be shown without it.
///
/// Mac Catalyst loses pushes made through several bindings to one stack, so every screen goes
/// through this object instead.
///
/// ```swift
/// @Environment(AccountNavigator.self) private var navigator
/// navigator.follow(AccountNavigation.signUpEntry)
/// ```
@MainActor @Observable final class AccountNavigator {
    /// The routes above the root.
    var path = NavigationPath()
    /// The sign-up details typed before their address is proven again, on their way from the
    /// details to the address screen and back (each takes it at once).
    var signUpDraft: SignUpDraft?
    /// Set when the code screen verified the address the login sent the person to verify: the
    /// login screen says so when it shows again, and clears it.
    var emailWasVerified = false

    /// An empty stack.
    init() {}

    /// Shows `route` above the current screen.
    func push(_ route: AccountRoute) { path.append(route) }

    /// Goes back one screen; does nothing at the root.
    func pop() {
        if !path.isEmpty { path.removeLast() }
    }

    /// Goes back to the root.
    func popToRoot() {
        if !path.isEmpty { path.removeLast(path.count) }
    }

    /// Carries out a step AccountKit's ``AccountNavigation`` decided.
    func follow(_ step: NavigationStep) {
        switch step {
        case .stay: break
        case .push(let route): push(route)
        case .pop: pop()
        case .popToRoot: popToRoot()
        }
    }
}
#endif
