import AccountAPI

extension MailTemplates {
    /// A notice to the account's owner that one of its recovery codes was used (to log in or to
    /// confirm a change), with how many are `left`. It carries no code and no number of six digits.
    public static func recoveryCodeUsed(left: Int, language: Language, to: String) -> MailMessage {
        let texts = SecondFactorMailTexts.texts(for: language)
        let general = Self.texts(for: language)
        return mail(to: to, subject: texts.recoveryUsedSubject, paragraphs: [general.greeting, texts.recoveryUsed(left), texts.notYou], texts: general)
    }
}

/// The sentences of the used recovery code's notice in one language; what to do when it was not
/// the owner's is the security notices' (``SecurityNoticeTexts``).
struct SecondFactorMailTexts: MailSentences {
    var recoveryUsedSubject: String
    /// "A recovery code was used; N are left."
    var recoveryUsed: @Sendable (Int) -> String
    /// What to do when the use was not the owner's.
    var notYou: String

    init(_ notices: SecurityNoticeTexts, recoveryUsedSubject: String, recoveryUsed: @escaping @Sendable (Int) -> String) {
        self.recoveryUsedSubject = recoveryUsedSubject
        self.recoveryUsed = recoveryUsed
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
