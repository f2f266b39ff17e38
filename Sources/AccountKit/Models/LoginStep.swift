/// A step ``LoginForm`` shows in place of the password (``SecondFactorForm``, ``AppleSignUpForm``),
/// which tells the form through `finished` where the login goes on.
@MainActor protocol LoginStep: AnyObject {
    /// The step's phase, as `finished` reports it.
    associatedtype Outcome: LoginStepOutcome
    /// Told when the step signed in or is over.
    var finished: ((Outcome) -> Void)? { get set }
}

/// A phase of a ``LoginStep``, read by the login form.
protocol LoginStepOutcome {
    /// Where the login form goes on from here; `nil` while the step goes on.
    var loginPhase: LoginForm.Phase? { get }
}
