import AccountAPI
import Foundation
import TestSupport
import Testing
import Mailer

@Suite struct SecurityNoticeTests {
    typealias Change = MailTemplates.SecurityChange

    static let changes: [Change] = [
        .passkeyAdded(name: "Pixel Tablet"), .passkeyRemoved(name: "Pixel Tablet"), .secondFactorEnabled,
        .secondFactorDisabled, .recoveryCodesReplaced, .providerLinked(provider: "Apple"),
        .providerUnlinked(provider: "Apple"), .passwordChanged, .accountDeleted,
    ]
    /// 1 December 2026, 21:40:05 UTC.
    static let evening = Date(timeIntervalSince1970: 1_796_161_205)
    static let origin = MailTemplates.NoticeOrigin(device: "Pixel Tablet (Chrome)", address: "203.0.113.7", at: evening)
    static let sender = "MBTI Playground <no-reply@mbti.example>"

    /// What each notice must say, by language: the change, and what to do if it wasn't the owner.
    static func expectedPhrases(_ change: Change, _ language: Language) -> [String] {
        switch (change, language) {
        case (.passkeyAdded, .en): ["passkey named “Pixel Tablet” was just added", "without your password"]
        case (.passkeyAdded, .ko): ["“Pixel Tablet” 패스키가 방금 추가되었어요", "비밀번호 없이 로그인"]
        case (.passkeyRemoved, .en): ["passkey named “Pixel Tablet” was just removed", "no longer log in"]
        case (.passkeyRemoved, .ko): ["“Pixel Tablet” 패스키가 방금 삭제되었어요"]
        case (.secondFactorEnabled, .en): ["Two-step verification was just turned on", "Every other device was signed out."]
        case (.secondFactorEnabled, .ko): ["2단계 인증이 켜졌어요", "다른 기기는 모두 로그아웃되었어요"]
        case (.secondFactorDisabled, .en): ["turned off", "recovery codes no longer work", "every other device was signed out"]
        case (.secondFactorDisabled, .ko): ["2단계 인증이 꺼졌어요", "로그인할 때 비밀번호만 입력하면 돼요", "복구 코드는 더 이상 쓸 수 없고", "로그아웃되었어요"]
        case (.recoveryCodesReplaced, .en): ["new set of recovery codes", "old codes no longer work"]
        case (.recoveryCodesReplaced, .ko): ["복구 코드가 새로 만들어졌어요", "이전 코드는 더 이상 쓸 수 없어요"]
        case (.providerLinked, .en): ["Your Apple account was just linked", "log in with Apple", "unlink it"]
        case (.providerLinked, .ko): ["Apple 계정이 방금 연결되었어요", "연결을 해제하고"]
        case (.providerUnlinked, .en): ["Your Apple account was just unlinked", "no longer log in with Apple"]
        case (.providerUnlinked, .ko): ["Apple 계정의 연결이 방금 해제되었어요", "로그인할 수 없어요"]
        case (.passwordChanged, .en): ["password of your MBTI Playground account was just changed",
                                       "Every other device was signed out.", "reset it now with “Forgot your password?”"]
        case (.passwordChanged, .ko): ["비밀번호가 방금 변경되었어요", "다른 기기는 모두 로그아웃되었어요",
                                       "‘비밀번호를 잊으셨나요?’에서 비밀번호를 재설정"]
        case (.accountDeleted, .en): ["account and all its data were just deleted", "can't be undone", "contact support"]
        case (.accountDeleted, .ko): ["계정과 모든 데이터가 방금 삭제되었어요", "되돌릴 수 없어요", "고객센터에 문의"]
        }
    }

    /// `text` without the invisible marks names are shown with (bidi isolates, zero-width spaces).
    static func visible(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !["\u{2068}", "\u{2069}", "\u{200B}"].contains($0) }))
    }

    @Test(arguments: Language.allCases)
    func everyChangeRendersAndNamesItselfItsDeviceAddressAndTime(language: Language) throws {
        var subjects: Set<String> = []
        for change in Self.changes {
            let message = MailTemplates.securityNotice(change, from: Self.origin, language: language, to: "mina@example.com")
            let text = Self.visible(message.text)
            subjects.insert(message.subject)
            #expect(message.to == "mina@example.com")
            #expect(message.subject.hasPrefix("[MBTI Playground] "))
            for phrase in Self.expectedPhrases(change, language) {
                #expect(text.contains(phrase), "\(change) \(language): \(phrase)")
            }
            switch language {
            case .en:
                #expect(text.hasPrefix("Hello,\n\n"))
                #expect(text.contains("Device: “Pixel Tablet (Chrome)”\nIP address: 203.0.113.7\nTime: 1 December 2026, 21:40 UTC"))
                #expect(text.contains("\n\nIf this wasn't you, "))
            case .ko:
                #expect(text.hasPrefix("안녕하세요,\n\n"))
                #expect(text.contains("기기: “Pixel Tablet (Chrome)”\nIP 주소: 203.0.113.7\n일시: 2026년 12월 1일 21:40 (UTC)"))
                #expect(text.contains("\n\n본인이 한 일이 아니라면 "))
            }
            let mail = try ParsedMail(MailRenderer.render(message, from: Self.sender, date: Self.evening, messageID: "m"))
            #expect(mail.headerLines.allSatisfy { $0.utf8.count <= 78 })
            #expect(try ParsedMail.decoded(mail.value("Subject")) == message.subject)
            #expect(mail.body == message.text.replacingOccurrences(of: "\n", with: "\r\n"))
            #expect(try #require(mail.html).contains("203.0.113.7"))
        }
        #expect(subjects.count == Self.changes.count, "each change has a subject of its own")
    }

    @Test(arguments: Language.allCases)
    func onlyTheDeletionAsksToContactSupportAndItAsksToChangeNoPassword(language: Language) {
        let deleted = MailTemplates.securityNotice(.accountDeleted, from: Self.origin, language: language, to: "a@b.example")
        #expect(!deleted.text.contains(language == .en ? "change your password" : "비밀번호를 바꾸고"))
        for change in Self.changes where change != .accountDeleted {
            let notice = MailTemplates.securityNotice(change, from: Self.origin, language: language, to: "a@b.example")
            #expect(!notice.text.contains(language == .en ? "support" : "고객센터"), "\(change)")
        }
    }

    @Test(arguments: Language.allCases)
    func aMissingDeviceOrAddressIsUnknown(language: Language) {
        for device in [nil, "", " \r\n\t\u{200B} "] {
            let origin = MailTemplates.NoticeOrigin(device: device, address: nil, at: Self.evening)
            let text = MailTemplates.securityNotice(.passwordChanged, from: origin, language: language, to: "a@b.example").text
            switch language {
            case .en: #expect(text.contains("Device: unknown device\nIP address: unknown\nTime: "))
            case .ko: #expect(text.contains("기기: 알 수 없는 기기\nIP 주소: 알 수 없음\n일시: "))
            }
        }
    }

    @Test func timesAreInUTCToTheMinuteWithTwoDigitClocks() {
        // 5 March 2026, 09:05:59 UTC; in Seoul it is already 18:05.
        let morning = MailTemplates.NoticeOrigin(device: nil, address: nil, at: Date(timeIntervalSince1970: 1_772_701_559))
        let english = MailTemplates.securityNotice(.passwordChanged, from: morning, language: .en, to: "a@b.example")
        let korean = MailTemplates.securityNotice(.passwordChanged, from: morning, language: .ko, to: "a@b.example")
        #expect(english.text.contains("Time: 5 March 2026, 09:05 UTC\n"))
        #expect(korean.text.contains("일시: 2026년 3월 5일 09:05 (UTC)\n"))
    }

    /// Device names a stranger could send as a `User-Agent`, to reach the headers, the HTML part or the text's lines.
    static let hostileDevices = [
        "<script>alert(\"x\")</script>\r\nBcc: victim@example.com",
        "Pixel\r\n\r\nIP address: 198.51.100.1\nTime: never",
        "Pixel\u{0}\u{7F}\u{85}\u{2028}\u{2029}\rSubject: hi",
        "\u{202E}enohPi <img src=x onerror=alert(1)> & \"quoted\"",
    ]

    @Test(arguments: Language.allCases)
    func aHostileDeviceNameStaysOneEscapedLineOfTheBody(language: Language) throws {
        let benign = MailTemplates.securityNotice(.passwordChanged, from: Self.origin, language: language, to: "a@b.example")
        let label = language == .en ? "Device: " : "기기: "
        for device in Self.hostileDevices {
            for change in Self.changes {
                let origin = MailTemplates.NoticeOrigin(device: device, address: "203.0.113.7", at: Self.evening)
                let message = MailTemplates.securityNotice(change, from: origin, language: language, to: "a@b.example")
                let lines = message.text.components(separatedBy: "\n")
                let deviceLines = lines.filter { $0.hasPrefix(label) }
                #expect(deviceLines.count == 1, "\(device)")
                #expect(lines.filter { $0.contains("Bcc") || $0.contains("Subject") || $0.contains("198.51") }.allSatisfy { $0.hasPrefix(label) })
                #expect(!message.text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
                #expect(!message.text.unicodeScalars.contains { ["\u{2028}", "\u{2029}", "\u{202E}"].contains($0) })
                #expect(!message.subject.contains("Pixel") && !message.subject.contains("<"), "the device is only in the body")
                if change == .passwordChanged {
                    #expect(message.text.components(separatedBy: "\n\n").count == benign.text.components(separatedBy: "\n\n").count)
                }

                let mail = try ParsedMail(MailRenderer.render(message, from: Self.sender, date: Self.evening, messageID: "m"))
                #expect(mail.fields.map(\.name) == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"])
                #expect(!mail.headerLines.contains { $0.contains("Bcc") || $0.contains("script") || $0.contains("Pixel") })
                let html = try #require(mail.html)
                #expect(!html.contains("<script") && !html.contains("<img"), "\(device)")
                if device.contains("<script>") { #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")) }
                if device.contains("<img") { #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot;")) }
                #expect(html.components(separatedBy: "<p>").count == mail.body.components(separatedBy: "\r\n\r\n").count + 1)
            }
        }
    }

    @Test func aLongDeviceNameIsCutToAHundredCharacters() {
        let origin = MailTemplates.NoticeOrigin(device: String(repeating: "a", count: 300), address: nil, at: Self.evening)
        let text = MailTemplates.securityNotice(.passwordChanged, from: origin, language: .en, to: "a@b.example").text
        #expect(text.contains("Device: “\u{2068}" + String(repeating: "a", count: 100) + "\u{2069}”\n"))
        #expect(!text.contains(String(repeating: "a", count: 101)))
    }

    @Test(arguments: Language.allCases)
    func noNoticeHoldsASixDigitRunOfItsOwn(language: Language) throws {
        let dates = [Self.evening, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 4_102_444_799)]  // 2099-12-31 23:59:59
        for date in dates {
            for change in Self.changes + [.passkeyAdded(name: "Key"), .providerLinked(provider: "Kakao")] {
                let origin = MailTemplates.NoticeOrigin(device: "Pixel Tablet", address: nil, at: date)
                let message = MailTemplates.securityNotice(change, from: origin, language: language, to: "user123456@example.com")
                #expect(message.text.matches(of: /[0-9]{6,}/).isEmpty, "\(change) \(date)")
                #expect(MailFolder.sixDigitRuns(in: message.subject + "\n" + message.text).isEmpty)
                let rendered = try MailRenderer.render(message, from: Self.sender, date: date, messageID: "m")
                #expect(MailFolder.codes(in: rendered).isEmpty)
                #expect(!rendered.contains("<strong"), "the HTML part boxes no code")
            }
        }
    }

    @Test(arguments: Language.allCases)
    func digitsInNamesAddNoSixDigitRun(language: Language) {
        let origin = MailTemplates.NoticeOrigin(device: "Phone 123456 or 0101234567", address: "203.0.113.7", at: Self.evening)
        for change in [Change.passkeyAdded(name: "Key 987654"), .providerLinked(provider: "Site 135790"), .passwordChanged] {
            let message = MailTemplates.securityNotice(change, from: origin, language: language, to: "a@b.example")
            #expect(message.text.matches(of: /[0-9]{6,}/).isEmpty, "\(message.text)")
            #expect(Self.visible(message.text).contains("Phone 123456 or 0101234567"), "the digits are all still shown")
        }
    }
}
