import Foundation
import Synchronization
import Testing

/// A minimal RFC 5322 reader for tests: splits headers from body, unfolds header lines and
/// decodes RFC 2047 "B" encoded words.
struct ParsedMail {
    /// The header section's lines exactly as written (folded lines separate).
    var headerLines: [String]
    /// Unfolded header fields in order.
    var fields: [(name: String, value: String)]
    /// The plain-text part's body (the whole body of a single-part message).
    var body: String
    /// The HTML part's body, for a multipart message.
    var html: String?
    /// The raw body as sent, MIME parts and boundaries included.
    var rawBody: String

    init(_ text: String) throws {
        let separator = try #require(text.range(of: "\r\n\r\n"), "no blank line between header and body")
        headerLines = String(text[..<separator.lowerBound]).components(separatedBy: "\r\n")
        rawBody = String(text[separator.upperBound...])
        body = rawBody
        fields = []
        for line in headerLines {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                let last = try #require(fields.indices.last, "a continuation line before any field")
                fields[last].value += line  // unfolding removes only the CRLF
            } else {
                let colon = try #require(line.firstIndex(of: ":"), "header line without colon: \(line)")
                let value = line[line.index(after: colon)...]
                fields.append((String(line[..<colon]), String(value.hasPrefix(" ") ? value.dropFirst() : value)))
            }
        }
        if let type = fields.first(where: { $0.name.lowercased() == "content-type" })?.value,
            type.hasPrefix("multipart/alternative"),
            let boundary = type.firstMatch(of: /boundary="([^"]+)"/)?.output.1
        {
            let parts = rawBody.components(separatedBy: "--\(boundary)")
            try #require(parts.last?.hasPrefix("--") == true, "the multipart body does not close its boundary")
            for part in parts.dropFirst().dropLast() {
                let content = part.hasPrefix("\r\n") ? String(part.dropFirst()) : part  // CRLF is one Character
                let split = try #require(content.range(of: "\r\n\r\n"), "a part without headers")
                let partHeaders = String(content[..<split.lowerBound]).lowercased()
                let partBody = String(content[split.upperBound...])
                if partHeaders.contains("content-type: text/plain; charset=utf-8") { body = partBody }
                if partHeaders.contains("content-type: text/html; charset=utf-8") { html = partBody }
            }
        }
    }

    /// The unfolded value of the only field called `name` (case-insensitive).
    func value(_ name: String) throws -> String {
        let matches = fields.filter { $0.name.lowercased() == name.lowercased() }
        try #require(matches.count == 1, "expected one \(name) header, found \(matches.count)")
        return matches[0].value
    }

    /// `value` with its encoded words decoded; whitespace between encoded words is dropped
    /// as RFC 2047 §6.2 says.
    static func decoded(_ value: String) throws -> String {
        let word = /=\?UTF-8\?B\?([A-Za-z0-9+\/=]*)\?=/
        guard value.contains("=?") else { return value }
        var bytes = Data()
        var rest = Substring(value)
        while let match = rest.firstMatch(of: word) {
            let between = rest[..<match.range.lowerBound]
            if !between.allSatisfy({ $0 == " " }) || bytes.isEmpty { bytes.append(contentsOf: between.utf8) }
            bytes.append(try #require(Data(base64Encoded: String(match.output.1)), "bad base64"))
            rest = rest[match.range.upperBound...]
        }
        bytes.append(contentsOf: rest.utf8)
        return try #require(String(data: bytes, encoding: .utf8), "encoded words are not UTF-8")
    }
}

/// Whether every line break in `text` is CRLF (no bare CR, no bare LF).
func hasOnlyCRLF(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    for (index, byte) in bytes.enumerated() {
        if byte == 0x0D, index + 1 >= bytes.count || bytes[index + 1] != 0x0A { return false }
        if byte == 0x0A, index == 0 || bytes[index - 1] != 0x0D { return false }
    }
    return true
}

/// A thread-safe list, for collecting what concurrent code hands out.
final class Collected<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var all: [Element] { storage.withLock { $0 } }
}

/// A fresh folder under the system temporary directory (not created).
func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("mailer-tests-\(UUID().uuidString)")
}
