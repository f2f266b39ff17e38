#if canImport(SwiftUI)
import AccountKit
import AccountUI
import Foundation
import SwiftUI

/// A tiny app over the account screens, talking to `make run` on this Mac.
///
/// Not a SwiftPM target: add this file to an iOS app project that depends on the package's
/// `AccountUI` library (see README.md next to it).
@main struct PlaygroundApp: App {
    // The simulator shares the Mac's network, so localhost is the server `make run` started.
    @State private var session = SessionManager(
        client: AccountClient(baseURL: URL(string: "http://localhost:8000")!),
        store: .platformDefault(appID: "mbti-playground.example"))

    /// Passkeys and Sign in with Apple need the entitlements of `PlaygroundApp.entitlements` and a
    /// server on an HTTPS domain started with matching flags (README.md ▸ Passkeys and Sign in
    /// with Apple); turn them on here once both are set: `[.passkeys, .apple]`.
    private let signInMethods: SignInMethods = []

    var body: some Scene {
        WindowGroup {
            AccountRootView(session: session, signInMethods: signInMethods)
        }
    }
}
#endif
