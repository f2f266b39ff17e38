import CLibPQ
import Foundation

/// What a listening connection needs beyond statements: its socket, input read without blocking,
/// commands sent without waiting for their result, and the notifications that arrived.
extension PGConnection {
    /// A notification: its channel and payload.
    struct Notification {
        let channel: String
        let payload: String
    }

    /// The socket to wait on for input.
    var socket: Int32 { PQsocket(handle) }

    /// Reads whatever input has arrived, without blocking; `false` when the connection broke.
    func consumeInput() -> Bool { PQconsumeInput(handle) != 0 && isConnected }

    /// Sends `sql` without waiting for its result; `false` when it could not be sent.
    func send(_ sql: String) -> Bool { PQsendQuery(handle, sql) != 0 }

    /// Takes the results of sent commands that have fully arrived; `false` when one failed (the
    /// connection is then closed by the caller).
    func takeResults() -> Bool {
        while PQisBusy(handle) == 0, let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK { return false }
        }
        return true
    }

    /// Whether a sent command's result is still to come.
    var isBusy: Bool { PQisBusy(handle) != 0 }

    /// The next notification read so far, if any.
    func nextNotification() -> Notification? {
        guard let notice = PQnotifies(handle) else { return nil }
        defer { PQfreemem(notice) }
        return Notification(channel: String(cString: notice.pointee.relname), payload: String(cString: notice.pointee.extra))
    }
}
