/// One of the 16 MBTI types. Decodes from any letter case, encodes upper case.
public enum MBTI: String, CaseIterable, Codable, Sendable, Hashable {
    case istj = "ISTJ", isfj = "ISFJ", infj = "INFJ", intj = "INTJ"
    case istp = "ISTP", isfp = "ISFP", infp = "INFP", intp = "INTP"
    case estp = "ESTP", esfp = "ESFP", enfp = "ENFP", entp = "ENTP"
    case estj = "ESTJ", esfj = "ESFJ", enfj = "ENFJ", entj = "ENTJ"

    /// Parses a type in any letter case, ignoring surrounding whitespace (`"enfp"` → `.enfp`).
    public init?(parsing text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
    }

    /// Decodes a type in any letter case; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = MBTI(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Not one of the 16 MBTI types")
        }
        self = value
    }
}

import Foundation
