/// A Korean particle whose form depends on the sound the word before it ends in: 이/가, 은/는,
/// 을/를, 과/와, 으로/로. The server's texts, the SDK and the command-line client choose it here
/// instead of writing both forms ("을(를)").
///
/// The word is read as a Korean reader reads it aloud: a Hangul syllable by its final consonant
/// (ㄹ counts as a vowel for 으로/로), a number by its Korean reading ("1" 일, "3" 삼, "10" 십),
/// a Latin letter by its name ("L" 엘, "M" 엠, "N" 엔, "R" 알 end in a consonant; the rest in a
/// vowel), kana by its sound. Closing quotes, brackets, spaces and invisible marks after the word
/// are skipped; a word none of these can read takes the form after a consonant.
///
/// ```swift
/// KoreanParticle.object.attached(to: "패스키 “iPhone”")    // "패스키 “iPhone”를"
/// KoreanParticle.direction.attached(to: "minsu@example.com") // "minsu@example.com으로"
/// KoreanParticle.topic.form(after: "URL")                  // "은"
/// ```
public enum KoreanParticle: Sendable, CaseIterable {
    /// 이/가: the subject.
    case subject
    /// 은/는: the topic.
    case topic
    /// 을/를: the object.
    case object
    /// 과/와: "and", "with".
    case and
    /// 으로/로: "to", "as", "by".
    case direction

    /// The particle's form after `word`.
    public func form(after word: String) -> String {
        let ending = KoreanReading.ending(of: word) ?? .consonant
        switch self {
        case .subject: return ending == .vowel ? "가" : "이"
        case .topic: return ending == .vowel ? "는" : "은"
        case .object: return ending == .vowel ? "를" : "을"
        case .and: return ending == .vowel ? "와" : "과"
        case .direction: return ending == .consonant ? "으로" : "로"
        }
    }

    /// `word` followed by the particle's form for it.
    public func attached(to word: String) -> String {
        word + form(after: word)
    }
}

/// How a word sounds at its end, read aloud in Korean.
enum KoreanReading {
    /// The last sound of a word.
    enum Ending: Sendable, Equatable {
        /// A vowel: no final consonant.
        case vowel
        /// The final consonant ㄹ (a vowel for 으로/로, a consonant for the others).
        case rieul
        /// Any other final consonant.
        case consonant
    }

    /// The last sound of `word`, or `nil` when its last letter has no Korean reading here.
    static func ending(of word: String) -> Ending? {
        let scalars = Array(word.unicodeScalars)
        guard let last = scalars.lastIndex(where: { !skipped($0) }) else { return nil }
        let scalar = scalars[last]
        if let ending = hangul(scalar) { return ending }
        if ("0"..."9").contains(scalar) {
            let digits = scalars[...last].reversed().prefix { ("0"..."9").contains($0) }
            return number(String(String.UnicodeScalarView(digits.reversed())))
        }
        if scalar.isASCII, scalar.properties.isAlphabetic { return latin(Character(scalar)) }
        return kana(scalar)
    }

    /// Closing quotes, brackets, periods, spaces and invisible marks (bidi isolates around a
    /// nickname) that stand after a word, before its particle.
    private static func skipped(_ scalar: Unicode.Scalar) -> Bool {
        "\"'”’」』)]}>.》〉".unicodeScalars.contains(scalar) || scalar.properties.isWhitespace
            || scalar.properties.generalCategory == .format
    }

    /// A Hangul syllable by its final consonant, a lone jamo by itself.
    private static func hangul(_ scalar: Unicode.Scalar) -> Ending? {
        switch scalar.value {
        case 0xAC00...0xD7A3:
            let final = (scalar.value - 0xAC00) % 28
            return final == 0 ? .vowel : final == 8 ? .rieul : .consonant
        case 0x3131...0x314E: return scalar.value == 0x3139 ? .rieul : .consonant
        case 0x314F...0x3163: return .vowel
        default: return nil
        }
    }

    /// A number as read in Sino-Korean: by its last digit, or by the unit its trailing zeros name.
    private static func number(_ digits: String) -> Ending {
        let zeros = digits.reversed().prefix { $0 == "0" }.count
        if zeros == digits.count { return .consonant }  // 영
        guard zeros == 0 else { return zeros < 12 ? .consonant : .vowel }  // 십 백 천 만 억 end in a consonant, 조 not
        // 영 일 이 삼 사 오 육 칠 팔 구
        let endings: [Ending] = [.consonant, .rieul, .vowel, .consonant, .vowel, .vowel, .consonant, .rieul, .rieul, .vowel]
        return endings[Int(digits.last!.asciiValue! - 48)]
    }

    /// A Latin letter by its name in Korean: 엘, 엠, 엔, 알 end in a consonant.
    private static func latin(_ letter: Character) -> Ending {
        switch letter.lowercased() {
        case "l", "r": .rieul
        case "m", "n": .consonant
        default: .vowel
        }
    }

    /// Kana by its sound: ん/ン ends in a consonant, the others in a vowel.
    private static func kana(_ scalar: Unicode.Scalar) -> Ending? {
        switch scalar.value {
        case 0x3093, 0x30F3: .consonant
        case 0x3041...0x3096, 0x30A1...0x30FA: .vowel
        default: nil
        }
    }
}
