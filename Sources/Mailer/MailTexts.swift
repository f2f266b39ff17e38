import AccountAPI

/// The sentences of every mail in one language; ``MailTemplates`` puts them together.
struct MailTexts: Sendable {
    var greeting: String
    var signature: String
    var signupSubject: String
    var signupIntro: String
    var verifySubject: String
    var verifyIntro: String
    var resetSubject: String
    var resetIntro: String
    var resetNotYou: String
    var alreadySubject: String
    var alreadyBody: [String]
    /// "The code is valid for N minutes."
    var lifetime: @Sendable (Int) -> String
    /// What to do when the code was not asked for, by purpose.
    var notYou: @Sendable (CodePurpose) -> String
    /// "You are signing up as “nickname”.", for a code that completes a pending sign-up.
    var signingUpAs: @Sendable (String) -> String
    /// What to do when that nickname is not the reader's: someone else is signing up the address.
    var notYourSignUp: @Sendable (String) -> String
}
