import AccountAPI
import Foundation

/// Results: JSON on stdout with `--json`, else a sentence for people.
extension Context {
    /// Prints `value` as the API's JSON (sorted keys, RFC 3339 dates) on one line.
    func printJSON<T: Encodable>(_ value: T) throws {
        let data = try AccountJSON.makeEncoder().encode(value)
        console.out(String(decoding: data, as: UTF8.self))
    }

    /// With `--json`, prints `{"ok":true}`; else prints `message`.
    func report(_ message: String) {
        if json { console.out(#"{"ok":true}"#) } else { console.out(message) }
    }

    /// With `--json`, prints `reply`; else prints `message`.
    func report<T: Encodable>(_ message: String, json reply: T) throws {
        if json { try printJSON(reply) } else { console.out(message) }
    }
}
