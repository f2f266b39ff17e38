import AccountAPI
import Foundation

/// The server's log: one JSON object a line on standard error, each beginning with `time` and
/// `event`. Callers pass only non-secret values.
///
/// A line is built byte by byte (``LogLine``) and copied into ``sink``, whose own thread writes it:
/// no request ever waits for standard error. Request lines are the first to be dropped when it
/// cannot keep up; events (security events, server errors, warnings) are kept before them.
package enum Log {
    /// Standard error's sink, one for the process; its thread starts with the first line.
    package static let sink = LogSink(fileDescriptor: 2)

    /// Writes an event (a security event, a server error, mail trouble):
    /// `{"time":…,"event":…, fields…}`.
    package static func event(_ event: String, _ fields: KeyValuePairs<StaticString, String>) {
        var line = LogLine(event: event)
        line.fields(fields)
        write(line, .event)
    }

    /// Writes an operator's warning (or notice) from a start-up check, such as a database file
    /// open to other users: `{"time":…,"event":…,"level":"warning", fields…}`. Written whatever
    /// `--access-log` says, since it asks for action.
    package static func notice(_ event: String, level: String = "warning", _ fields: KeyValuePairs<StaticString, String>) {
        var line = LogLine(event: event)
        line.field("level", level)
        line.fields(fields)
        write(line, .event)
    }

    /// Hands a finished line to the sink.
    package static func write(_ line: consuming LogLine, _ kind: LogSink.Kind) {
        line.withBytes { _ = sink.append($0, kind) }
    }
}
