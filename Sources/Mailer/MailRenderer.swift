import Foundation

/// Turns a ``MailMessage`` into RFC 5322 text, the one format every transport sends.
///
/// The result has CRLF line ends, header lines of at most 78 characters (non-ASCII subjects and
/// names become RFC 2047 encoded words), and the body as UTF-8 in 8bit.
///
/// The body stays 8bit rather than quoted-printable or base64, also over SMTP: every server this
/// is meant for advertises 8BITMIME (RFC 6152; Postfix, Exim, the big providers, aiosmtpd), the
/// templates' lines stay far below SMTP's 998-octet limit, and the code stays readable as the
/// only 6-digit run. Quoted-printable would glue hex escapes to nearby digits (`분2026` becomes
/// `=EB=B6=842026`, a new 6-digit run) and may break a line inside the code; base64 hides it.
///
/// ```swift
/// let eml = try MailRenderer.render(message, from: "MBTI Playground <no-reply@example.com>",
///                                   date: .now, messageID: UUID().uuidString)
/// ```
public enum MailRenderer {
    /// Renders `message` as a complete RFC 5322 message.
    /// - Parameters:
    ///   - sender: the From mailbox, `addr@domain` or `Display Name <addr@domain>`.
    ///   - date: the Date header's value (injected so tests are repeatable).
    ///   - messageID: the unique left part of the Message-ID, e.g. a UUID; the header becomes
    ///     `<messageID@domain-of-sender>`.
    /// - Throws: ``MailError/invalidHeader(_:)`` when a header value holds a line break or
    ///   control character, an address is not a single plain address, or `messageID` is not
    ///   made of letters, digits, `-` and `.`.
    public static func render(
        _ message: MailMessage, from sender: String, date: Date, messageID: String
    ) throws -> String {
        let from = try Mailbox(parsing: sender, header: "From")
        let to = try Mailbox(parsing: message.to, header: "To")
        let subject = try HeaderSafety.checked(message.subject, header: "Subject")
        guard !messageID.isEmpty,
              messageID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) })
        else { throw MailError.invalidHeader("Message-ID must be letters, digits, '-' and '.'") }

        let boundary = boundary(for: messageID)
        let headers = [
            HeaderFolding.field("From", tokens: from.headerTokens),
            HeaderFolding.field("To", tokens: to.headerTokens),
            HeaderFolding.field(
                "Subject", tokens: HeaderFolding.unstructuredTokens(subject, header: "Subject")),
            "Date: " + MailDate.format(date),
            "Message-ID: <\(messageID)@\(from.domain)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
        ]
        // Plain text first (what a program reads and a text-only client shows), then HTML.
        let parts = [
            "--\(boundary)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
                + crlfBody(message.text),
            "--\(boundary)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
                + crlfBody(MailHTML.render(message.text)),
            "--\(boundary)--\r\n",
        ]
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + parts.joined()
    }

    /// A MIME boundary made of letters only (never a run of digits), from the message id.
    static func boundary(for messageID: String) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let tail = messageID.unicodeScalars.map { letters[Int($0.value) % letters.count] }
        return "=_MBTI_" + String(tail.prefix(32))
    }

    /// `text` with every line ending (`\r\n`, lone `\r`, lone `\n`) made CRLF, ending in CRLF.
    static func crlfBody(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r":
                scalars.append(contentsOf: "\r\n".unicodeScalars)
                previousWasCR = true
                continue
            case "\n" where previousWasCR:
                break
            case "\n":
                scalars.append(contentsOf: "\r\n".unicodeScalars)
            default:
                scalars.append(scalar)
            }
            previousWasCR = false
        }
        var body = String(scalars)
        if !body.hasSuffix("\r\n") { body += "\r\n" }
        return body
    }
}
