#if canImport(SwiftUI)
import AccountKit
import Observation
import SwiftUI

/// The one owner of the account screens' `NavigationPath`, put in the environment once at the root.
///
/// Mac Catalyst loses pushes made through several bindings to one stack, so every screen goes
/// through this object instead.
///
/// ```swift
/// @Environment(AccountNavigator.self) private var navigator
/// navigator.push(.signUp)
/// ```
@MainActor @Observable public final class AccountNavigator {
    /// The routes above the root.
    public var path = NavigationPath()

    /// An empty stack.
    public init() {}

    /// Shows `route` above the current screen.
    public func push(_ route: AccountRoute) { path.append(route) }

    /// Goes back one screen; does nothing at the root.
    public func pop() {
        if !path.isEmpty { path.removeLast() }
    }

    /// Goes back to the root.
    public func popToRoot() {
        if !path.isEmpty { path.removeLast(path.count) }
    }

    /// Carries out a step AccountKit's ``AccountNavigation`` decided.
    public func follow(_ step: NavigationStep) {
        switch step {
        case .stay: break
        case .push(let route): push(route)
        case .popToRoot: popToRoot()
        }
    }
}
#endif
