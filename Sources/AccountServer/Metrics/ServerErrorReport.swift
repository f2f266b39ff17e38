import AccountAPI
import AccountCore

extension Metrics {
    /// Reports a 5xx reply: one `server_error` log line (request id, status, reason kind and
    /// SQLSTATE; for an unexpected error its type name) and one count in
    /// `http_server_errors_total`. Called once per 5xx, by ``AccountApp/problem(for:_:)``.
    func reportServerError(_ error: any Error, status: Int, _ context: RequestContext) {
        let reason = ServerErrorReason(error)
        serverError(reason)
        var line = LogLine(event: "server_error")
        line.field("request_id", context.requestID)
        line.field("status", digitsOf: status)
        line.field("reason", reason.kind)
        if let sqlState = reason.sqlState { line.field("sql_state", sqlState) }
        if reason.kind == "unexpected_error" { line.field("error", String(describing: type(of: error))) }
        Log.write(line, .event)
    }
}
