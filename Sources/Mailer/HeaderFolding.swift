/// Lays out a header field over lines of at most 78 characters (RFC 5322 §2.1.1, §2.2.3).
enum HeaderFolding {
    /// The longest line RFC 5322 recommends, without the CRLF.
    static let maxLineLength = 78

    /// `"Name: token token…"`, breaking with CRLF + space between tokens when a line would grow
    /// past ``maxLineLength``. A single token longer than a line (a very long address) is kept whole.
    static func field(_ name: String, tokens: [String]) -> String {
        var lines: [String] = []
        var line = name + ":"
        var lineHasToken = false
        for token in tokens {
            if lineHasToken, line.utf8.count + 1 + token.utf8.count > maxLineLength {
                lines.append(line)
                line = " " + token
            } else {
                line += " " + token
            }
            lineHasToken = true
        }
        lines.append(line)
        return lines.joined(separator: "\r\n")
    }

    /// Tokens for unstructured text such as a subject: the words themselves when the text is
    /// ASCII and folds cleanly at single spaces, otherwise encoded words (which also keep
    /// runs of spaces and leading or trailing spaces exactly).
    static func unstructuredTokens(_ text: String, header: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let longest = maxLineLength - header.utf8.count - 2
        let foldsAsIs = text.allSatisfy { $0.isASCII }
            && !text.contains("=?")  // would read as an encoded word
            && !words.contains { $0.isEmpty || $0.utf8.count > longest }
        if text.isEmpty || foldsAsIs { return text.isEmpty ? [] : words }
        return EncodedWords.encode(text)
    }
}
