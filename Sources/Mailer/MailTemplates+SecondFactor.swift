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

/// The sentences of the second-factor notices in one language.
struct SecondFactorMailTexts: Sendable {
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

    static func texts(for language: Language) -> SecondFactorMailTexts {
        switch language {
        case .en: .english
        case .ko: .korean
        }
    }

    static let english = SecondFactorMailTexts(
        enabledSubject: "Two-step verification is on",
        enabledBody: [
            "Two-step verification was just turned on for your MBTI Playground account. From now on, logging in "
                + "asks for a code from your authenticator app (or one of your recovery codes) after your password.",
            "Every other device was signed out.",
        ],
        disabledSubject: "Two-step verification is off",
        disabledBody: [
            "Two-step verification was just turned off for your MBTI Playground account: logging in asks only for "
                + "your password again. Your recovery codes no longer work, and every other device was signed out.",
        ],
        recoveryUsedSubject: "A recovery code was used",
        recoveryUsed: { left in
            "One of your recovery codes was just used for your MBTI Playground account, and it won't work again. "
                + (left == 1 ? "1 code is left." : "\(left) codes are left.")
                + (left <= 3 ? " Make a new set in the app's security settings soon." : "")
        },
        replacedSubject: "New recovery codes",
        replacedBody: [
            "A new set of recovery codes was just made for your MBTI Playground account. The old codes no longer work."
        ],
        notYou: "If this wasn't you, change your password now and check your devices: someone may know your password.")

    static let korean = SecondFactorMailTexts(
        enabledSubject: "2단계 인증이 켜졌어요",
        enabledBody: [
            "MBTI Playground 계정에 2단계 인증이 켜졌어요. 이제 로그인할 때 비밀번호 다음에 인증 앱의 코드(또는 복구 코드 하나)를 입력해야 해요.",
            "다른 기기는 모두 로그아웃되었어요.",
        ],
        disabledSubject: "2단계 인증이 꺼졌어요",
        disabledBody: [
            "MBTI Playground 계정의 2단계 인증이 꺼졌어요. 이제 비밀번호만으로 로그인해요. 복구 코드는 더 이상 쓸 수 없고, 다른 기기는 모두 로그아웃되었어요."
        ],
        recoveryUsedSubject: "복구 코드가 사용되었어요",
        recoveryUsed: { left in
            "MBTI Playground 계정의 복구 코드 하나가 방금 사용되었어요. 이 코드는 다시 쓸 수 없어요. 남은 코드는 \(left)개예요."
                + (left <= 3 ? " 앱의 보안 설정에서 새 복구 코드를 만들어 두세요." : "")
        },
        replacedSubject: "새 복구 코드가 만들어졌어요",
        replacedBody: ["MBTI Playground 계정의 복구 코드가 새로 만들어졌어요. 이전 코드는 더 이상 쓸 수 없어요."],
        notYou: "본인이 한 일이 아니라면 지금 비밀번호를 바꾸고 로그인된 기기를 확인해 주세요. 누군가 비밀번호를 알고 있을 수 있어요.")
}
