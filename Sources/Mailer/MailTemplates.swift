import AccountAPI

/// The mails the server sends, in Korean and English.
///
/// Texts never include the recipient's address or any other number of six digits, so the code
/// is the only 6-digit number in a code mail (tools and tests find it with `\b\d{6}\b`).
///
/// ```swift
/// let mail = MailTemplates.code("042917", purpose: .signup, language: .ko,
///                               lifetimeMinutes: 10, to: "mina@example.com")
/// ```
public enum MailTemplates {
    /// The product name used in every subject and signature.
    public static let appName = "MBTI Playground"

    /// A mail carrying a one-time code.
    /// - Parameters:
    ///   - code: the 6-digit code, shown alone on its own line.
    ///   - purpose: `.signup` welcomes a new user, `.verify` confirms an existing account's address.
    ///   - lifetimeMinutes: how long the code is valid, written as a small number of minutes.
    ///   - to: the recipient's address.
    public static func code(
        _ code: String, purpose: CodePurpose, language: Language, lifetimeMinutes: Int, to: String
    ) -> MailMessage {
        let texts = texts(for: language)
        let (subject, intro) = switch purpose {
        case .signup: (texts.signupSubject, texts.signupIntro)
        case .verify: (texts.verifySubject, texts.verifyIntro)
        }
        return mail(to: to, subject: subject, paragraphs: [
            texts.greeting, intro, "    \(code)",
            texts.lifetime(lifetimeMinutes) + " " + texts.notYou(purpose),
        ], texts: texts)
    }

    /// A mail carrying a code to choose a new password (`POST /auth/password/reset`).
    public static func passwordResetCode(
        _ code: String, language: Language, lifetimeMinutes: Int, to: String
    ) -> MailMessage {
        let texts = texts(for: language)
        return mail(to: to, subject: texts.resetSubject, paragraphs: [
            texts.greeting, texts.resetIntro, "    \(code)",
            texts.lifetime(lifetimeMinutes) + " " + texts.resetNotYou,
        ], texts: texts)
    }

    /// Sent instead of a sign-up code when the address already has an account, so the API's
    /// answer stays the same while the owner learns what happened. It carries no code.
    public static func alreadyRegistered(language: Language, to: String) -> MailMessage {
        let texts = texts(for: language)
        return mail(to: to, subject: texts.alreadySubject, paragraphs: [texts.greeting] + texts.alreadyBody,
                    texts: texts)
    }

    static func texts(for language: Language) -> MailTexts {
        switch language {
        case .en: .english
        case .ko: .korean
        }
    }

    static func mail(
        to: String, subject: String, paragraphs: [String], texts: MailTexts
    ) -> MailMessage {
        MailMessage(
            to: to, subject: "[\(appName)] \(subject)",
            text: (paragraphs + [texts.signature]).joined(separator: "\n\n") + "\n")
    }
}
