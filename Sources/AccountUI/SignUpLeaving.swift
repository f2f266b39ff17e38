#if canImport(SwiftUI)
import AccountKit
import SwiftUI

extension View {
    /// The question before the sign-up is left with something typed ("Cancel sign-up?"), on the
    /// address screen and on the details alike: cancelling drops what was typed, the details kept
    /// for the address proven again included, and goes back to the root.
    func asksBeforeLeavingSignUp(_ isPresented: Binding<Bool>, language: Language, navigator: AccountNavigator) -> some View {
        alert(AccountUIStrings.text(.cancelSignUpTitle, language), isPresented: isPresented) {
            Button(AccountUIStrings.text(.discard, language), role: .destructive) {
                navigator.signUpDraft = nil
                navigator.follow(AccountNavigation.leavingSignUp)
            }
            Button(AccountUIStrings.text(.keepEditing, language), role: .cancel) {}
        } message: {
            Text(AccountUIStrings.text(.cancelSignUpMessage, language))
        }
    }
}
#endif
