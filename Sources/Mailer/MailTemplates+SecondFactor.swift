import AccountAPI

extension MailTemplates {
    /// Which change to the account's second factor a notice tells its owner about.
    public enum SecondFactorNotice: Sendable, Equatable {
        /// An authenticator app was confirmed; logins need a code from now on.
        case enabled
        /// The second factor was turned off.
        case disabled
        /// A recovery code was used to log in or confirm a change; `left` are unused.
        case recoveryCodeUsed(left: Int)
        /// A new set of recovery codes replaced the old one.
        case recoveryCodesReplaced
    }

    /// A notice to the account's owner about a change to its second factor. It carries no code and
    /// no number of six digits.
    public static func secondFactor(_ notice: SecondFactorNotice, language: Language, to: String) -> MailMessage {
        let texts = SecondFactorMailTexts.texts(for: language)
        let (subject, body): (String, [String]) = switch notice {
        case .enabled: (texts.enabledSubject, texts.enabledBody)
        case .disabled: (texts.disabledSubject, texts.disabledBody)
        case .recoveryCodeUsed(let left): (texts.recoveryUsedSubject, [texts.recoveryUsed(left)])
        case .recoveryCodesReplaced: (texts.replacedSubject, texts.replacedBody)
        }
        let general = Self.texts(for: language)
        return mail(to: to, subject: subject, paragraphs: [general.greeting] + body + [texts.notYou], texts: general)
    }
}

/// The sentences of the second-factor notices in one language. All but the recovery code's are
/// those of the security notices (``SecurityNoticeTexts``), written once there.
struct SecondFactorMailTexts: MailSentences {
    var enabledSubject: String
    var enabledBody: [String]
    var disabledSubject: String
    var disabledBody: [String]
    var recoveryUsedSubject: String
    /// "A recovery code was used; N are left."
    var recoveryUsed: @Sendable (Int) -> String
    var replacedSubject: String
    var replacedBody: [String]
    /// What to do when the change was not the owner's.
    var notYou: String

    /// The sentences of `notices`, and those of a used recovery code.
    init(_ notices: SecurityNoticeTexts, recoveryUsedSubject: String, recoveryUsed: @escaping @Sendable (Int) -> String) {
        enabledSubject = notices.enabledSubject
        enabledBody = notices.enabledBody
        disabledSubject = notices.disabledSubject
        disabledBody = [notices.disabled]
        self.recoveryUsedSubject = recoveryUsedSubject
        self.recoveryUsed = recoveryUsed
        replacedSubject = notices.replacedSubject
        replacedBody = [notices.replaced]
        notYou = notices.secondFactorNotYou
    }

    static let english = SecondFactorMailTexts(
        .english,
        recoveryUsedSubject: "A recovery code was used",
        recoveryUsed: { left in
            "One of your recovery codes was just used for your MBTI Playground account, and it won't work again. "
                + (left == 1 ? "1 code is left." : "\(left) codes are left.")
                + (left <= 3 ? " Make a new set in the app's security settings soon." : "")
        })

    static let korean = SecondFactorMailTexts(
        .korean,
        recoveryUsedSubject: "복구 코드가 사용되었어요",
        recoveryUsed: { left in
            "MBTI Playground 계정의 복구 코드 하나가 방금 사용되었어요. 이 코드는 다시 쓸 수 없어요. 남은 코드는 \(left)개예요."
                + (left <= 3 ? " 앱의 보안 설정에서 새 복구 코드를 만들어 두세요." : "")
        })
}
