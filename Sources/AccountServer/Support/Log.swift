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

    /// Writes an operator's warning (or notice) from a start-up check, such as a database file
    /// open to other users: `{"time":…,"event":…,"level":"warning", fields…}`. Written even with
    /// the access log off, since it asks for action.
    static func notice(_ event: String, level: String = "warning", _ fields: [String: String]) {
        var object = fields
        object["event"] = event
        object["level"] = level
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
