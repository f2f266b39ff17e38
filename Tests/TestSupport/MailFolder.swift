import Foundation

/// The messages a server's file mailer (`--mail file://FOLDER`) wrote, and the one rule for
/// reading a code out of one.
///
/// Delivery goes through the outbox, so it comes a moment after the reply: ``code(to:skipping:timeout:)``
/// waits for it. An in-process app passes `deliver`, called before every look, which sends its
/// due mail at once.
public struct MailFolder: Sendable {
    /// The folder the `.eml` files are written to.
    public let folder: URL
    private let delivery: (@Sendable () async -> Void)?

    /// The messages in `folder`; `deliver`, when given, sends what is due at once and is called
    /// before every look (an in-process app's outbox), so nothing is waited for.
    public init(folder: URL, deliver: (@Sendable () async -> Void)? = nil) {
        self.folder = folder
        delivery = deliver
    }

    private func deliver() async { await delivery?() }

    /// Every message's text, oldest first (the names start with the time).
    public func messages() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// Messages whose `To:` header is `address` (in any letter case), oldest first.
    public func messages(to address: String) -> [String] {
        messages().filter { Self.recipient(of: $0)?.lowercased() == address.lowercased() }
    }

    /// Every message after delivering what is due (an in-process app's outbox), oldest first.
    public func delivered() async -> [String] {
        await deliver()
        return messages()
    }

    /// The messages to `address` after delivering what is due, oldest first.
    public func delivered(to address: String) async -> [String] {
        await deliver()
        return messages(to: address)
    }

    /// The code in the newest message to `address`, waiting for delivery up to `timeout`;
    /// `skipping` ignores that many earlier messages (wait for a second one, say).
    /// - Throws: when no message came, or the newest has no single code (``code(in:)``).
    public func code(to address: String, skipping: Int = 0, timeout: Duration = .seconds(10)) async throws -> String {
        let found = try await arrived(skipping + 1, to: address, timeout: timeout)
        guard let newest = found.last, let code = Self.code(in: newest) else {
            throw TestFailure("no single 6-digit code in the newest message to \(address):\n\(found.last ?? "")")
        }
        return code
    }

    /// The messages to `address` once at least `count` have arrived (at most `timeout`).
    /// - Throws: when fewer came.
    @discardableResult
    public func arrived(_ count: Int, to address: String, timeout: Duration = .seconds(10)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            await deliver()
            let found = messages(to: address)
            if found.count >= count { return found }
            guard ContinuousClock.now < deadline else {
                throw TestFailure("\(found.count) of \(count) messages to \(address) in \(folder.path) within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// How many messages went to `address` once `expected` of them arrived (at most 10 s) and
    /// another second passed, so that one too many would show; with delivery on every look,
    /// what is there once due mail is sent.
    public func settledCount(to address: String, expected: Int) async throws -> Int {
        _ = try? await arrived(expected, to: address)
        if delivery == nil { try await Task.sleep(for: .seconds(1)) }
        await deliver()
        return messages(to: address).count
    }

    /// The address of a message's `To:` header, as written.
    public static func recipient(of message: String) -> String? {
        headers(of: message).first { $0.hasPrefix("To: ") }.map { String($0.dropFirst(4)) }
    }

    /// The header lines of a message.
    static func headers(of message: String) -> [Substring] {
        (normalized(message).components(separatedBy: "\n\n").first ?? "").split(separator: "\n")
    }

    /// The `Subject:` header as written (an English subject is plain ASCII).
    public static func subject(of message: String) -> String? {
        headers(of: message).first { $0.hasPrefix("Subject: ") }.map { String($0.dropFirst(9)) }
    }

    /// The lines a reader sees in the plain-text part (sent `8bit`, so as written), blank lines
    /// left out, each without its surrounding blanks.
    public static func plainLines(of message: String) -> [String] {
        let marker = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        guard let start = normalized(message).range(of: marker)?.upperBound else { return [] }
        let part = normalized(message)[start...].components(separatedBy: "\n--").first ?? ""
        return part.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Everything after the header block.
    public static func body(of message: String) -> String {
        normalized(message).components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
            // The parts' boundary lines are made from the random Message-ID, which a reader
            // never sees and which may hold six digits in a row.
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("--") }.joined(separator: "\n")
    }

    /// The code of a message: the only run of exactly six digits in its body; `nil` when there is
    /// none or more than one (a mail that could be misread).
    public static func code(in message: String) -> String? {
        let runs = codes(in: message)
        return runs.count == 1 ? runs[0] : nil
    }

    /// Every run of exactly six digits in a message's body (none in a notice that must carry no code).
    public static func codes(in message: String) -> [String] { sixDigitRuns(in: body(of: message)) }

    /// Every run of exactly six digits in `text`: what could be read as a code.
    public static func sixDigitRuns(in text: String) -> [String] {
        text.matches(of: /[0-9]+/).map { String($0.output) }.filter { $0.count == 6 }
    }

    /// Line ends as `\n` (the files use CRLF, as mail does).
    private static func normalized(_ message: String) -> String { message.replacingOccurrences(of: "\r\n", with: "\n") }
}
