import Foundation

/// RFC 2047 "B" encoded words (`=?UTF-8?B?...?=`) for header text that is not plain ASCII.
enum EncodedWords {
    /// UTF-8 bytes per word: 42 bytes are 56 base64 characters, a 68-character word, so
    /// `"Subject: "` plus one word stays under 78 characters and RFC 2047's 75-character word limit.
    static let maxBytesPerWord = 42

    /// Encodes `text` as one or more encoded words, each holding whole characters
    /// (RFC 2047 §5: a word must not split a character).
    static func encode(_ text: String) -> [String] {
        chunks(of: text).map { "=?UTF-8?B?" + Data($0.utf8).base64EncodedString() + "?=" }
    }

    /// Splits `text` into pieces of at most ``maxBytesPerWord`` UTF-8 bytes, at character
    /// boundaries when possible and at scalar boundaries inside an over-long character.
    private static func chunks(of text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        func append(_ piece: String) {
            if current.utf8.count + piece.utf8.count > maxBytesPerWord, !current.isEmpty {
                pieces.append(current)
                current = ""
            }
            current += piece
        }
        for character in text {
            if String(character).utf8.count <= maxBytesPerWord {
                append(String(character))
            } else {
                // An emoji sequence longer than a word: fall back to whole scalars.
                for scalar in character.unicodeScalars { append(String(scalar)) }
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}
