import Foundation
import TestSupport

extension MailFolder {
    /// How many messages went to `address` once `expected` of them arrived (delivery is
    /// asynchronous; at most 10 s) and another second passed, so that one too many would show.
    static func settledCount(to address: String, in folder: URL, expected: Int) async throws -> Int {
        for _ in 0..<100 where messages(to: address, in: folder).count < expected {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .seconds(1))
        return messages(to: address, in: folder).count
    }
}
