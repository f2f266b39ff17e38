import AccountAPI

/// Which screen follows which: the decisions of the account screens' navigation, as pure
/// functions of the models' state, so views only carry them out.
///
/// ```swift
/// let step = AccountNavigation.afterSignUp(form.phase)   // .push(.emailCode(…)) once a code is sent
/// ```
public enum AccountNavigation {
    /// The root screen for a session state.
    public static func root(for state: SessionManager.State) -> RootScreen {
        root(for: state, restoreFailure: nil)
    }

    /// The root screen for a session state after reading storage failed with `restoreFailure`:
    /// only a locked store is worth waiting for; any other failure shows the login screen (with
    /// the failure and a retry), never a spinner that waits forever.
    public static func root(for state: SessionManager.State, restoreFailure: CredentialStoreError?) -> RootScreen {
        switch state {
        case .unknown:
            guard let restoreFailure, !restoreFailure.isTemporary else { return .waiting }
            return .logIn
        case .signedOut: return .logIn
        // The login screen carries on with its second step (``LoginForm/secondFactor``).
        case .awaitingSecondFactor: return .logIn
        case .signedIn(let user): return .profile(user)
        }
    }

    /// Where "create an account" on the login screen leads: the email-first sign-up.
    public static let signUpEntry = NavigationStep.push(.signUp)

    /// After the sign-up form's phase changed: to the code screen once a code is mailed (with its
    /// lifetime), back to the root once signed in (the root then shows the profile).
    public static func afterSignUp(_ phase: SignUpForm.Phase) -> NavigationStep {
        switch phase {
        case .codeSent(let email, let expiresIn): .push(.emailCode(email: email, purpose: .verify, codeExpiresIn: expiresIn))
        case .signedIn: .popToRoot
        case .idle, .submitting, .failed: .stay
        }
    }

    /// After a login attempt: to the code screen when the password was right but the address is
    /// unverified (with the address, when the user typed one).
    public static func afterLogIn(needsEmailVerification: Bool, email: String?) -> NavigationStep {
        needsEmailVerification ? .push(.emailCode(email: email ?? "", purpose: .verify, codeExpiresIn: nil)) : .stay
    }

    /// After the email flow's phase changed: signed in by the code, back to the root (the profile);
    /// an existing account's address proven, back to login; an address proven first, on to the
    /// sign-up form that uses its token; a sign-up replaced by a newer one of the address, back to
    /// the sign-up form it came from (tell it: ``SignUpForm/signUpWasSuperseded()``).
    public static func afterVerification(_ phase: EmailVerificationFlow.Phase, purpose: CodePurpose, email: String) -> NavigationStep {
        if case .signedIn = phase { return .popToRoot }
        if case .signUpSuperseded = phase { return .pop }
        guard case .verified(let token) = phase else { return .stay }
        switch purpose {
        case .verify: return .popToRoot
        case .signup: return .push(.verifiedSignUp(email: email, token: token))
        }
    }

    /// Where leaving the sign-up goes (after asking, when ``confirmsLeavingSignUp(hasInput:phase:)``
    /// says so): back to the root, past an address step whose proof would be of no more use.
    public static let leavingSignUp = NavigationStep.popToRoot

    /// After the proof of an address ran out before the account was made (email-first flow): back to
    /// the address step, to prove it again.
    public static let afterVerificationExpired = NavigationStep.pop

    /// Whether leaving the sign-up form asks first: only with input that no sign-up used yet.
    public static func confirmsLeavingSignUp(hasInput: Bool, phase: SignUpForm.Phase) -> Bool {
        switch phase {
        case .codeSent, .signedIn, .submitting: false
        case .idle, .failed: hasInput
        }
    }
}
