import AccountAPI
import Foundation

extension MailTemplates {
    /// A change of how an account proves who it is, which its owner is told about.
    public enum SecurityChange: Sendable, Equatable {
        /// A passkey with this name was added: it can log in without the password.
        case passkeyAdded(name: String)
        /// The passkey with this name was removed.
        case passkeyRemoved(name: String)
        /// Two-step verification was turned on; every other device was signed out.
        case secondFactorEnabled
        /// Two-step verification was turned off; the recovery codes no longer work and every other
        /// device was signed out.
        case secondFactorDisabled
        /// A new set of recovery codes replaced the old one.
        case recoveryCodesReplaced
        /// An account at `provider` (its display name, e.g. "Apple") can now log in.
        case providerLinked(provider: String)
        /// The account at `provider` can no longer log in.
        case providerUnlinked(provider: String)
        /// The password was changed; every other device was signed out.
        case passwordChanged
        /// The account and its data are gone.
        case accountDeleted
    }

    /// Where a change came from, as the server saw the request.
    public struct NoticeOrigin: Sendable, Equatable {
        /// The device's name as the request's `User-Agent` gave it: untrusted text, cleaned before
        /// a notice shows it.
        public var device: String?
        /// The client's IP address as text.
        public var address: String?
        /// When the change was made; notices show it in UTC.
        public var at: Date

        /// Creates an origin.
        public init(device: String?, address: String?, at: Date) {
            self.device = device
            self.address = address
            self.at = at
        }
    }

    /// The notice to `to` (the account's own address) about `change`, in `language`: what changed,
    /// the device, address and time it came from, and what to do if it wasn't the owner.
    ///
    /// It carries no code. Names (of a passkey, a provider, the device) are cleaned of control
    /// characters and line breaks, cut to 100 characters and shown like a nickname, so they add no
    /// line, link or six-digit run of their own.
    public static func securityNotice(
        _ change: SecurityChange, from origin: NoticeOrigin, language: Language, to: String
    ) -> MailMessage {
        let texts = SecurityNoticeTexts.texts(for: language)
        let (subject, body, notYou): (String, [String], String) = switch change.shown {
        case .passkeyAdded(let name): (texts.passkeyAddedSubject, [texts.passkeyAdded(name)], texts.passkeyNotYou)
        case .passkeyRemoved(let name): (texts.passkeyRemovedSubject, [texts.passkeyRemoved(name)], texts.passkeyNotYou)
        case .secondFactorEnabled: (texts.enabledSubject, texts.enabledBody, texts.secondFactorNotYou)
        case .secondFactorDisabled: (texts.disabledSubject, [texts.disabled], texts.secondFactorNotYou)
        case .recoveryCodesReplaced: (texts.replacedSubject, [texts.replaced], texts.secondFactorNotYou)
        case .providerLinked(let provider):
            (texts.linkedSubject, [texts.linked(provider)], texts.linkedNotYou(provider))
        case .providerUnlinked(let provider):
            (texts.unlinkedSubject, [texts.unlinked(provider)], texts.unlinkedNotYou(provider))
        case .passwordChanged: (texts.passwordSubject, [texts.password], texts.passwordNotYou)
        case .accountDeleted: (texts.deletedSubject, [texts.deleted], texts.deletedNotYou)
        }
        let time = UTCMinute(origin.at)
        // The address is only cleaned, not broken up: it stays as the owner would look it up.
        let cameFrom = [
            texts.device(shownName(origin.device)), texts.address(cleaned(origin.address, limit: noticeAddressLimit)),
            texts.time(time.day, time.month, time.year, time.clock),
        ].joined(separator: "\n")
        let general = Self.texts(for: language)
        return mail(to: to, subject: subject, paragraphs: [general.greeting] + body + [cameFrom, notYou], texts: general)
    }

    /// The most characters of a name a notice shows; the rest is cut.
    static let noticeNameLimit = 100
    /// The most characters of an address a notice shows.
    static let noticeAddressLimit = 64

    /// `text` cleaned (``cleaned(_:limit:)``) and shown like a nickname; `nil` when nothing is left.
    static func shownName(_ text: String?) -> String? {
        cleaned(text, limit: noticeNameLimit).map(displayedNickname)
    }

    /// `text` on one line: control characters, line breaks and other white space become one space,
    /// invisible format characters (bidi overrides, zero-width ones) are dropped, the ends are trimmed
    /// and the rest cut to `limit` characters; `nil` when nothing is left.
    static func cleaned(_ text: String?, limit: Int) -> String? {
        guard let text else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isForbiddenInHeader || scalar.properties.isWhitespace {
                if let last = scalars.last, last != " " { scalars.append(" ") }
            } else if scalar.properties.generalCategory != .format, !scalar.properties.isDefaultIgnorableCodePoint {
                scalars.append(scalar)
            }
        }
        let kept = String(String(scalars).prefix(limit)).trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }
}

extension MailTemplates.SecurityChange {
    /// The change with its names as a notice shows them (``MailTemplates/shownName(_:)``).
    var shown: Self {
        func shown(_ name: String) -> String { MailTemplates.shownName(name) ?? "" }
        return switch self {
        case .passkeyAdded(let name): .passkeyAdded(name: shown(name))
        case .passkeyRemoved(let name): .passkeyRemoved(name: shown(name))
        case .providerLinked(let provider): .providerLinked(provider: shown(provider))
        case .providerUnlinked(let provider): .providerUnlinked(provider: shown(provider))
        case .secondFactorEnabled, .secondFactorDisabled, .recoveryCodesReplaced, .passwordChanged, .accountDeleted: self
        }
    }
}

/// A time to the minute in UTC, in the parts notices name it by.
struct UTCMinute: Sendable {
    let day: Int, month: Int, year: Int
    /// `21:40`, `09:05`.
    let clock: String

    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        (day, month, year) = (parts.day ?? 1, parts.month ?? 1, parts.year ?? 1970)
        clock = two(parts.hour) + ":" + two(parts.minute)
    }
}

/// Sentences written once for each language a mail can be in.
protocol MailSentences: Sendable {
    static var english: Self { get }
    static var korean: Self { get }
}

extension MailSentences {
    /// The sentences in `language`.
    static func texts(for language: Language) -> Self {
        switch language {
        case .en: english
        case .ko: korean
        }
    }
}

/// The sentences of the security notices in one language. Names reach them already shown.
struct SecurityNoticeTexts: MailSentences {
    var passkeyAddedSubject: String
    var passkeyAdded: @Sendable (_ name: String) -> String
    var passkeyRemovedSubject: String
    var passkeyRemoved: @Sendable (_ name: String) -> String
    /// What to do when a passkey change was not the owner's.
    var passkeyNotYou: String
    var enabledSubject: String
    /// Two-step verification is on: what logging in asks for now; other devices were signed out.
    var enabledBody: [String]
    var disabledSubject: String
    /// It is off: the password alone logs in, recovery codes are void, other devices were signed out.
    var disabled: String
    var replacedSubject: String
    /// New recovery codes were made and the old ones no longer work.
    var replaced: String
    /// What to do when a change of the second factor was not the owner's.
    var secondFactorNotYou: String
    var linkedSubject: String
    /// The provider's account was linked and can log in.
    var linked: @Sendable (_ provider: String) -> String
    var linkedNotYou: @Sendable (_ provider: String) -> String
    var unlinkedSubject: String
    /// The provider's account was unlinked and can no longer log in.
    var unlinked: @Sendable (_ provider: String) -> String
    var unlinkedNotYou: @Sendable (_ provider: String) -> String
    var passwordSubject: String
    /// The password was changed; other devices were signed out.
    var password: String
    /// What to do then: reset the password, someone else knows it.
    var passwordNotYou: String
    var deletedSubject: String
    /// The account and its data were deleted, for good.
    var deleted: String
    /// What to do then: contact support (nothing to change any more).
    var deletedNotYou: String
    /// "Device: “name”", or that it is unknown.
    var device: @Sendable (String?) -> String
    /// "IP address: …", or that it is unknown.
    var address: @Sendable (String?) -> String
    /// "Time: 1 December 2026, 21:40 UTC", from day, month, year and `21:40`.
    var time: @Sendable (_ day: Int, _ month: Int, _ year: Int, _ clock: String) -> String

    static let english = SecurityNoticeTexts(
        passkeyAddedSubject: "A passkey was added",
        passkeyAdded: { name in
            "A passkey named “\(name)” was just added to your MBTI Playground account. It can log in without your password, "
                + "with the Face ID, fingerprint or screen lock of the device that holds it."
        },
        passkeyRemovedSubject: "A passkey was removed",
        passkeyRemoved: { name in "The passkey named “\(name)” was just removed from your MBTI Playground account: it can no longer log in." },
        passkeyNotYou: "If this wasn't you, change your password now, remove passkeys you don't know in the app's security settings, "
            + "and check your devices.",
        enabledSubject: "Two-step verification is on",
        enabledBody: [
            "Two-step verification was just turned on for your MBTI Playground account. From now on, logging in "
                + "asks for a code from your authenticator app (or one of your recovery codes) after your password.",
            "Every other device was signed out.",
        ],
        disabledSubject: "Two-step verification is off",
        disabled: "Two-step verification was just turned off for your MBTI Playground account: logging in asks only for "
            + "your password again. Your recovery codes no longer work, and every other device was signed out.",
        replacedSubject: "New recovery codes",
        replaced: "A new set of recovery codes was just made for your MBTI Playground account. The old codes no longer work.",
        secondFactorNotYou: "If this wasn't you, change your password now and check your devices: someone may know your password.",
        linkedSubject: "A linked account was added",
        linked: { provider in
            "Your \(provider) account was just linked to your MBTI Playground account: you can now log in with \(provider)."
        },
        linkedNotYou: { provider in
            "If this wasn't you, someone else's \(provider) account can now log in to yours: unlink it in the app's "
                + "security settings, change your password now and check your devices."
        },
        unlinkedSubject: "A linked account was removed",
        unlinked: { provider in
            "Your \(provider) account was just unlinked from your MBTI Playground account: you can no longer log in with \(provider)."
        },
        unlinkedNotYou: { provider in
            "If this wasn't you, change your password now and check your devices: someone may know your password. "
                + "You can link \(provider) again in the app's security settings."
        },
        passwordSubject: "Your password was changed",
        password: "The password of your MBTI Playground account was just changed. Every other device was signed out.",
        passwordNotYou: "If this wasn't you, someone else knows your password: reset it now with “Forgot your password?” "
            + "on the login screen, and check your devices.",
        deletedSubject: "Your account was deleted",
        deleted: "Your MBTI Playground account and all its data were just deleted. You can no longer log in with it, "
            + "and this can't be undone.",
        deletedNotYou: "If this wasn't you, contact support right away: someone could log in to your account. "
            + "If you use the same password on other sites, change it there too.",
        device: { device in "Device: " + (device.map { "“\($0)”" } ?? "unknown device") },
        address: { address in "IP address: " + (address ?? "unknown") },
        time: { day, month, year, clock in
            let months = ["January", "February", "March", "April", "May", "June",
                          "July", "August", "September", "October", "November", "December"]
            return "Time: \(day) \(months[month - 1]) \(year), \(clock) UTC"
        })

    static let korean = SecurityNoticeTexts(
        passkeyAddedSubject: "패스키가 추가되었어요",
        passkeyAdded: { name in
            "MBTI Playground 계정에 “\(name)” 패스키가 방금 추가되었어요. 이 패스키가 있는 기기의 Face ID, 지문, 화면 잠금으로 비밀번호 없이 로그인할 수 있어요."
        },
        passkeyRemovedSubject: "패스키가 삭제되었어요",
        passkeyRemoved: { name in "MBTI Playground 계정에서 “\(name)” 패스키가 방금 삭제되었어요. 이제 이 패스키로는 로그인할 수 없어요." },
        passkeyNotYou: "본인이 한 일이 아니라면 지금 비밀번호를 바꾸고, 앱의 보안 설정에서 모르는 패스키를 삭제하고, 로그인된 기기를 확인해 주세요.",
        enabledSubject: "2단계 인증이 켜졌어요",
        enabledBody: [
            "MBTI Playground 계정에 2단계 인증이 켜졌어요. 이제 로그인할 때 비밀번호 다음에 인증 앱의 코드(또는 복구 코드 하나)를 입력해야 해요.",
            "다른 기기는 모두 로그아웃되었어요.",
        ],
        disabledSubject: "2단계 인증이 꺼졌어요",
        disabled: "MBTI Playground 계정의 2단계 인증이 꺼졌어요. 이제 로그인할 때 비밀번호만 입력하면 돼요. 복구 코드는 더 이상 쓸 수 없고, 다른 기기는 모두 로그아웃되었어요.",
        replacedSubject: "새 복구 코드가 만들어졌어요",
        replaced: "MBTI Playground 계정의 복구 코드가 새로 만들어졌어요. 이전 코드는 더 이상 쓸 수 없어요.",
        secondFactorNotYou: "본인이 한 일이 아니라면 지금 비밀번호를 바꾸고 로그인된 기기를 확인해 주세요. 누군가 비밀번호를 알고 있을 수 있어요.",
        linkedSubject: "간편 로그인 계정이 연결되었어요",
        linked: { provider in "MBTI Playground 계정에 \(provider) 계정이 방금 연결되었어요. 이제 \(provider) 계정으로 로그인할 수 있어요." },
        linkedNotYou: { provider in
            "본인이 한 일이 아니라면 다른 사람이 자신의 \(provider) 계정으로 이 계정에 로그인할 수 있어요. "
                + "앱의 보안 설정에서 연결을 해제하고, 지금 비밀번호를 바꾸고, 로그인된 기기를 확인해 주세요."
        },
        unlinkedSubject: "간편 로그인 계정 연결이 해제되었어요",
        unlinked: { provider in "MBTI Playground 계정과 \(provider) 계정의 연결이 방금 해제되었어요. 이제 \(provider) 계정으로는 로그인할 수 없어요." },
        unlinkedNotYou: { provider in
            "본인이 한 일이 아니라면 지금 비밀번호를 바꾸고 로그인된 기기를 확인해 주세요. 누군가 비밀번호를 알고 있을 수 있어요. "
                + "\(provider) 계정은 앱의 보안 설정에서 다시 연결할 수 있어요."
        },
        passwordSubject: "비밀번호가 변경되었어요",
        password: "MBTI Playground 계정의 비밀번호가 방금 변경되었어요. 다른 기기는 모두 로그아웃되었어요.",
        passwordNotYou: "본인이 한 일이 아니라면 다른 사람이 비밀번호를 알고 있는 거예요. "
            + "지금 로그인 화면의 ‘비밀번호를 잊으셨나요?’에서 비밀번호를 재설정하고, 로그인된 기기를 확인해 주세요.",
        deletedSubject: "계정이 삭제되었어요",
        deleted: "MBTI Playground 계정과 모든 데이터가 방금 삭제되었어요. 이제 이 계정으로 로그인할 수 없고, 삭제된 계정은 되돌릴 수 없어요.",
        deletedNotYou: "본인이 한 일이 아니라면 바로 고객센터에 문의해 주세요. 누군가 이 계정에 로그인할 수 있었던 거예요. "
            + "같은 비밀번호를 다른 서비스에서도 쓰고 있다면 그곳의 비밀번호도 바꿔 주세요.",
        device: { device in "기기: " + (device.map { "“\($0)”" } ?? "알 수 없는 기기") },
        address: { address in "IP 주소: " + (address ?? "알 수 없음") },
        time: { day, month, year, clock in "일시: \(year)년 \(month)월 \(day)일 \(clock) (UTC)" })
}
