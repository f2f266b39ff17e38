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
            EmailCodeScreen(session: session, email: "", purpose: .signup, codeExpiresIn: nil)
        case .verifiedSignUp(let email, let token):
            SignUpScreen(session: session, verifiedEmail: email, token: token)
        case .emailCode(let email, let purpose, let codeExpiresIn):
            EmailCodeScreen(session: session, email: email, purpose: purpose, codeExpiresIn: codeExpiresIn)
        case .passwordReset(let email):
            PasswordResetScreen(session: session, email: email)
        }
    }
}
#endif
