import AccountAPI
import Foundation
import Testing
import Mailer

/// The mails call things what the screens call them, and their Korean particles fit the word
/// before them.
@Suite struct MailWordingTests {
    static let origin = MailTemplates.NoticeOrigin(device: nil, address: nil, at: Date(timeIntervalSince1970: 1_700_000_000))

    @Test func theAlreadyRegisteredMailNamesTheLoginScreensButtonAndTheNickname() {
        let english = MailTemplates.alreadyRegistered(language: .en, to: "a@b.example").text
        #expect(english.contains("“Forgot your password?”"), "\(english)")
        #expect(english.contains("your nickname or this email address"))
        #expect(!english.contains("username"))
        let korean = MailTemplates.alreadyRegistered(language: .ko, to: "a@b.example").text
        #expect(korean.contains("‘비밀번호를 잊으셨나요?’"), "\(korean)")
        #expect(!korean.contains("비밀번호 찾기"))
    }

    @Test func thePasswordChangedNoticeNamesTheLoginScreensButton() {
        let english = MailTemplates.securityNotice(.passwordChanged, from: Self.origin, language: .en, to: "a@b.example").text
        #expect(english.contains("“Forgot your password?”"))
        let korean = MailTemplates.securityNotice(.passwordChanged, from: Self.origin, language: .ko, to: "a@b.example").text
        #expect(korean.contains("‘비밀번호를 잊으셨나요?’"))
    }

    @Test(arguments: [("다혜", "가"), ("민준", "이"), ("mina", "가"), ("Sol", "이"), ("user7", "이"), ("user2", "가")])
    func theNicknameTakesTheSubjectParticleItsLastSoundAsks(nickname: String, particle: String) {
        let mail = MailTemplates.code("042917", purpose: .verify, language: .ko, lifetimeMinutes: 10, to: "a@b.example", signingUpAs: nickname)
        #expect(mail.text.contains("“\u{2068}\(nickname)\u{2069}”\(particle) 직접 정한 닉네임이 아니라면"), "\(mail.text)")
        #expect(!mail.text.contains("이(가)"))
    }
}
