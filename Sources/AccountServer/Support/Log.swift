import AccountAPI
import Foundation

/// The server's log: one JSON object a line on standard error, each beginning with `time` and
/// `event`. Callers pass only non-secret values.
///
/// A line is built byte by byte (``LogLine``) and copied into ``sink``, whose own thread writes it:
/// no request ever waits for standard error. Request lines are the first to be dropped when it
/// cannot keep up; events (security events, server errors, warnings) are kept before them.
enum Log {
    /// Standard error's sink, one for the process; its thread starts with the first line.
    static let sink = LogSink(fileDescriptor: 2)

    /// Writes an event (a security event, a server error, mail trouble):
    /// `{"time":…,"event":…, fields…}`.
    static func event(_ event: String, _ fields: KeyValuePairs<StaticString, String>) {
        var line = LogLine(event: event)
        line.fields(fields)
        write(line, .event)
    }

    /// Writes an operator's warning (or notice) from a start-up check, such as a database file
    /// open to other users: `{"time":…,"event":…,"level":"warning", fields…}`. Written whatever
    /// `--access-log` says, since it asks for action.
    static func notice(_ event: String, level: String = "warning", _ fields: KeyValuePairs<StaticString, String>) {
        var line = LogLine(event: event)
        line.field("level", level)
        line.fields(fields)
        write(line, .event)
    }

    /// Writes the access line of one answered request: method, path, status, duration, client and
    /// request id, with why a token was refused (`refusal`, never the token itself).
    static func request(_ context: RequestContext, status: Int, duration: Duration, refusal: String?) {
        let request = context.request
        var line = LogLine(event: "request", time: context.now)
        line.field("request_id", context.requestID)
        line.field("method", request.method)
        line.field("path", request.path)
        line.field("status", digitsOf: status)
        line.field("duration_ms", milliseconds: duration)
        line.field("client", context.clientAddress)
        if let refusal { line.field("reason", "token " + refusal) }
        write(line, .access)
    }

    /// Hands a finished line to the sink.
    static func write(_ line: consuming LogLine, _ kind: LogSink.Kind) {
        line.withBytes { _ = sink.append($0, kind) }
    }
}
