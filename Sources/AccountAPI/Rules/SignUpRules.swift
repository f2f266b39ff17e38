/// Whole-request checks of a sign-up, shared by the server and the client's form.
///
/// ```swift
/// let errors = SignUpRules.validate(
///     username: "김민수", email: "mina@example.com", password: "correct horse",
///     passwordConfirmation: "correct horse", mbti: "enfp")
/// errors.isEmpty // true
/// ```
package enum SignUpRules {
    /// The errors of every field, keyed by wire name; a `nil` field is `required`.
    ///
    /// `password_confirmation` is optional: when present and different from a present `password`
    /// it is a `mismatch`. The password is checked against the nickname and email as given.
    package static func validate(
        username: String?, email: String?, password: String?, passwordConfirmation: String?, mbti: String?
    ) -> FieldErrors {
        var errors = FieldErrors()
        errors.add(contentsOf: username.map(UsernameRule.validate) ?? [.required], to: "username")
        errors.add(contentsOf: email.map(EmailRule.validate) ?? [.required], to: "email")
        errors.add(
            contentsOf: password.map { PasswordRule.validate($0, username: username, email: email) } ?? [.required],
            to: "password")
        if let password, let passwordConfirmation, passwordConfirmation != password {
            errors.add(.mismatch, to: "password_confirmation")
        }
        errors.add(contentsOf: mbti.map(MBTIRule.validate) ?? [.required], to: "mbti")
        return errors
    }
}
