import Foundation

/// An address with an optional display name: `mina@example.com` or
/// `MBTI Playground <no-reply@example.com>`.
struct Mailbox: Equatable {
    /// The display name, if any, as people read it.
    var name: String?
    /// The bare address, e.g. `no-reply@example.com`.
    var address: String

    /// The part after the `@`, used to make Message-IDs unique to the sender's domain.
    var domain: Substring { address[address.index(after: address.lastIndex(of: "@")!)...] }

    /// Parses `text`, refusing anything that is not one plain address (no line breaks, no
    /// second recipient after a comma, no stray angle brackets).
    /// - Throws: ``MailError/invalidHeader(_:)`` naming `header`.
    init(parsing text: String, header: String) throws {
        let text = try HeaderSafety.checked(text, header: header)
            .trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            var name = text[..<open].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                name = String(name.dropFirst().dropLast())
            }
            self.name = name.isEmpty ? nil : name
            self.address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        } else {
            self.name = nil
            self.address = text
        }
        guard Self.isPlainAddress(address), !(name ?? "").contains(where: { "<>\"".contains($0) }) else {
            throw MailError.invalidHeader("\(header) is not a single email address: \(text)")
        }
    }

    /// One `@` between a non-empty local part and domain, with none of the characters that
    /// separate or quote addresses. UTF-8 is allowed (RFC 6532).
    private static func isPlainAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        let specials: Set<Character> = ["<", ">", "(", ")", "[", "]", ",", ";", ":", "\"", "\\"]
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !address.contains { $0.isWhitespace || specials.contains($0) }
    }

    /// Header tokens: the display name as atoms or encoded words, then `<address>`.
    var headerTokens: [String] {
        guard let name else { return [address] }
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ")
        // Plain words go as atoms; anything needing quotes (or "=?", which reads as an encoded
        // word) is encoded instead, which is always valid in a display name (RFC 2047 §5).
        let plain = name.allSatisfy(atext.contains) && !name.contains("  ") && !name.contains("=?")
        let nameTokens = plain ? name.split(separator: " ").map(String.init) : EncodedWords.encode(name)
        return nameTokens + ["<\(address)>"]
    }
}
