import AccountAPI

extension MailTemplates {
    /// A change to an account's passkeys its owner is told about.
    public enum PasskeyNotice: Sendable, Equatable {
        /// A passkey with this device name was added: it can log in without the password.
        case added(name: String)
        /// The passkey with this device name was removed.
        case removed(name: String)
    }

    /// A notice to the account's owner about its passkeys. It carries no code and no number of six
    /// digits; the device name is the owner's own text, checked when it was given.
    public static func passkey(_ notice: PasskeyNotice, language: Language, to: String) -> MailMessage {
        let texts = PasskeyMailTexts.texts(for: language)
        let (subject, body): (String, String) = switch notice {
        case .added(let name): (texts.addedSubject, texts.added(name))
        case .removed(let name): (texts.removedSubject, texts.removed(name))
        }
        let general = Self.texts(for: language)
        return mail(to: to, subject: subject, paragraphs: [general.greeting, body, texts.notYou], texts: general)
    }
}

/// The sentences of the passkey notices in one language: those of the security notices
/// (``SecurityNoticeTexts``), written once there.
struct PasskeyMailTexts: Sendable {
    var addedSubject: String
    var added: @Sendable (String) -> String
    var removedSubject: String
    var removed: @Sendable (String) -> String
    var notYou: String

    static func texts(for language: Language) -> PasskeyMailTexts {
        let notices = SecurityNoticeTexts.texts(for: language)
        return PasskeyMailTexts(
            addedSubject: notices.passkeyAddedSubject, added: notices.passkeyAdded,
            removedSubject: notices.passkeyRemovedSubject, removed: notices.passkeyRemoved, notYou: notices.passkeyNotYou)
    }
}
