import Foundation
import TestSupport

/// Reads one-time codes from the `.eml` files `--mail file://` writes.
enum MailFolder {
    /// Every message file's text, oldest first (the names start with the time).
    static func messages(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// Messages whose `To:` header is `address`, oldest first.
    static func messages(to address: String, in folder: URL) -> [String] {
        messages(in: folder).filter { message in
            headers(of: message).contains { $0.lowercased() == "to: \(address.lowercased())" }
        }
    }

    /// The code in the newest message to `address`, waiting for delivery (an outbox, so
    /// asynchronous) up to `timeout` seconds; `skipping` ignores that many earlier messages.
    static func code(to address: String, in folder: URL, skipping: Int = 0, timeout: Double = 10) async throws -> String {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let found = messages(to: address, in: folder)
            if found.count > skipping, let newest = found.last {
                guard let code = sixDigits(in: body(of: newest)) else {
                    throw TestFailure("no 6-digit code in the newest message to \(address):\n\(newest)")
                }
                return code
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("no message to \(address) in \(folder.path) within \(timeout) s")
    }

    static func headers(of message: String) -> [Substring] {
        (message.components(separatedBy: "\r\n\r\n").first ?? "").split(separator: "\r\n")
    }

    static func body(of message: String) -> String {
        message.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    /// The only run of exactly six digits in `text`, or `nil` if there is none or more than one.
    static func sixDigits(in text: String) -> String? {
        let runs = text.matches(of: /[0-9]+/).map { String($0.output) }.filter { $0.count == 6 }
        return runs.count == 1 ? runs[0] : nil
    }
}
