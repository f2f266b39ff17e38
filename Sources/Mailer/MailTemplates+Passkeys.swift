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

/// The sentences of the passkey notices in one language.
struct PasskeyMailTexts: Sendable {
    var addedSubject: String
    var added: @Sendable (String) -> String
    var removedSubject: String
    var removed: @Sendable (String) -> String
    var notYou: String

    static func texts(for language: Language) -> PasskeyMailTexts {
        switch language {
        case .en: .english
        case .ko: .korean
        }
    }

    static let english = PasskeyMailTexts(
        addedSubject: "A passkey was added",
        added: { name in
            "A passkey named “\(name)” was just added to your MBTI Playground account. It can log in without your password, "
                + "with the Face ID, fingerprint or screen lock of the device that holds it."
        },
        removedSubject: "A passkey was removed",
        removed: { name in "The passkey named “\(name)” was just removed from your MBTI Playground account: it can no longer log in." },
        notYou: "If this wasn't you, change your password now, remove passkeys you don't know in the app's security settings, "
            + "and check your devices.")

    static let korean = PasskeyMailTexts(
        addedSubject: "패스키가 추가되었어요",
        added: { name in
            "MBTI Playground 계정에 “\(name)” 패스키가 방금 추가되었어요. 이 패스키가 있는 기기의 Face ID, 지문, 화면 잠금으로 비밀번호 없이 로그인할 수 있어요."
        },
        removedSubject: "패스키가 삭제되었어요",
        removed: { name in "MBTI Playground 계정에서 “\(name)” 패스키가 방금 삭제되었어요. 이제 이 패스키로는 로그인할 수 없어요." },
        notYou: "본인이 한 일이 아니라면 지금 비밀번호를 바꾸고, 앱의 보안 설정에서 모르는 패스키를 삭제하고, 로그인된 기기를 확인해 주세요.")
}
