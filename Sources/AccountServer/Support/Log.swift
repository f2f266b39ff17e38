import AccountAPI
import Foundation

/// One JSON object a line on standard error. Callers pass only non-secret values.
enum Log {
    nonisolated(unsafe) static var enabled = true

    /// Writes `{"time":…,"event":…, fields…}`.
    static func event(_ event: String, _ fields: [String: String]) {
        guard enabled else { return }
        var object = fields
        object["event"] = event
        object["time"] = RFC3339.string(from: Date())
        write(object)
    }

    static func write(_ object: [String: String]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        var line = data
        line.append(0x0A)
        // One write(2) per line keeps lines from interleaving between threads.
        line.withUnsafeBytes { buffer in _ = Foundation.write(2, buffer.baseAddress, buffer.count) }
    }
}
