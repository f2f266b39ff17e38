#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The screen of a pushed ``AccountRoute``.
struct AccountDestinationView: View {
    let route: AccountRoute
    let session: SessionManager

    var body: some View {
        switch route {
        case .signUp:
            EmailCodeScreen(client: session.client, email: "", purpose: .signup, codeSent: false)
        case .verifiedSignUp(let email, let token):
            SignUpScreen(session: session, verifiedEmail: email, token: token)
        case .emailCode(let email, let purpose, let codeSent):
            EmailCodeScreen(client: session.client, email: email, purpose: purpose, codeSent: codeSent)
        case .passwordReset(let email):
            PasswordResetScreen(client: session.client, email: email)
        }
    }
}
#endif
