import Testing
@testable import AccountKit

/// The particle after a word is the one its last sound asks for, as a Korean reader says the word.
@Suite struct KoreanParticleTests {
    @Test(arguments: [
        // Hangul: a final consonant, none, or ㄹ (a vowel for 으로/로 only).
        ("민준", "이", "은", "을", "과", "으로"),
        ("다혜", "가", "는", "를", "와", "로"),
        ("서울", "이", "은", "을", "과", "로"),
        // Digits by their Korean reading: 일 삼 이 육 칠 십 백 천 만, and 영.
        ("1", "이", "은", "을", "과", "로"),
        ("3", "이", "은", "을", "과", "으로"),
        ("2", "가", "는", "를", "와", "로"),
        ("16", "이", "은", "을", "과", "으로"),
        ("7", "이", "은", "을", "과", "로"),
        ("10", "이", "은", "을", "과", "으로"),
        ("300", "이", "은", "을", "과", "으로"),
        ("0", "이", "은", "을", "과", "으로"),
        // Latin letters by their names: 엘 알 엠 엔 end in a consonant, 에이 비 와이 … do not.
        ("URL", "이", "은", "을", "과", "로"),
        ("user", "이", "은", "을", "과", "로"),
        ("minsu@example.com", "이", "은", "을", "과", "으로"),
        ("--option", "이", "은", "을", "과", "으로"),
        ("ENFP", "가", "는", "를", "와", "로"),
        ("iPhone", "가", "는", "를", "와", "로"),
        // Quotes, brackets and bidi isolates after the word are not read.
        ("'mfa enable'", "가", "는", "를", "와", "로"),
        ("“\u{2068}민준\u{2069}”", "이", "은", "을", "과", "으로"),
        ("패스키 “Pixel”", "이", "은", "을", "과", "로"),
        // Kana by its sound.
        ("さくら", "가", "는", "를", "와", "로"),
        ("ケン", "이", "은", "을", "과", "으로"),
    ])
    func theParticleFollowsTheLastSound(word: String, subject: String, topic: String, object: String, and: String, direction: String) {
        #expect(KoreanParticle.subject.form(after: word) == subject, "\(word)")
        #expect(KoreanParticle.topic.form(after: word) == topic, "\(word)")
        #expect(KoreanParticle.object.form(after: word) == object, "\(word)")
        #expect(KoreanParticle.and.form(after: word) == and, "\(word)")
        #expect(KoreanParticle.direction.form(after: word) == direction, "\(word)")
    }

    @Test func aWordWithNoKoreanReadingTakesTheFormAfterAConsonant() {
        #expect(KoreanParticle.subject.form(after: "😀") == "이")
        #expect(KoreanParticle.direction.form(after: "") == "으로")
    }

    @Test func attachingPutsTheFormRightAfterTheWord() {
        #expect(KoreanParticle.direction.attached(to: "minsu@example.com") == "minsu@example.com으로")
        #expect(KoreanParticle.object.attached(to: "패스키 “iPhone”") == "패스키 “iPhone”를")
    }

    @Test func thePasskeyAddedMessageHasNoBothFormsFallback() {
        let text = PasskeyTexts.added("Pixel").ko
        #expect(text.contains("“Pixel”을 추가했어요"), "\(text)")
        #expect(!text.contains("을(를)"))
    }
}
