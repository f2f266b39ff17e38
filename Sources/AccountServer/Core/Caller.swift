import AccountAPI
import AccountStore
import Foundation

/// Who asks, as the operations see a request: when, from where, in which language. No HTTP: the
/// request pipeline makes one from each request (``RequestContext/caller``), and the command line
/// makes its own.
struct Caller: Sendable {
    /// The request's id, for the log lines of what it does.
    let requestID: String?
    /// The address limits and events use; `nil` for the command line.
    let clientAddress: String?
    /// The client's `User-Agent`, which names the device of a session it opens.
    let userAgent: String?
    /// The language of the texts mailed on its behalf.
    let language: Language
    /// The time the operation happens at (from the injected clock).
    let now: Date

    /// Where this caller's security events come from.
    var origin: EventOrigin { EventOrigin(clientAddress: clientAddress, deviceName: UserAgent.deviceName(of: userAgent)) }

    /// Logs a security event about what this caller did.
    func audit(_ event: AuditEvent, userID: UUID? = nil, _ fields: KeyValuePairs<StaticString, String> = [:]) {
        var line = LogLine(event: event.rawValue)
        if let requestID { line.field("request_id", requestID) }
        if let clientAddress { line.field("client", clientAddress) }
        if let userID { line.field("user_id", userID.lowercasedText) }
        line.fields(fields)
        Log.write(line, .event)
    }
}

/// A caller signed in: the account its session belongs to, read with the session.
struct SignedInCaller: Sendable {
    let caller: Caller
    let user: UserRecord
    let sessionID: UUID
    /// How the session was authenticated (the `amr` every access token of it carries).
    let amr: [String]

    var userID: UUID { user.id }
    var now: Date { caller.now }
    var origin: EventOrigin { caller.origin }
    var language: Language { caller.language }

    /// Logs a security event about the signed-in account.
    func audit(_ event: AuditEvent, _ fields: KeyValuePairs<StaticString, String> = [:]) {
        caller.audit(event, userID: userID, fields)
    }
}
