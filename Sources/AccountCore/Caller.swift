import AccountAPI
import AccountStore
import Foundation

/// Who asks, as the operations see a request: when, from where, in which language. No HTTP: the
/// request pipeline makes one from each request (``RequestContext/caller``), and the command line
/// makes its own.
package struct Caller: Sendable {
    /// The request's id, for the log lines of what it does.
    package let requestID: String?
    /// The address limits and events use; `nil` for the command line.
    package let clientAddress: String?
    /// The client's `User-Agent`, which names the device of a session it opens.
    package let userAgent: String?
    /// The language of the texts mailed on its behalf.
    package let language: Language
    /// The time the operation happens at (from the injected clock).
    package let now: Date

    package init(requestID: String? = nil, clientAddress: String? = nil, userAgent: String? = nil, language: Language, now: Date) {
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.language = language
        self.now = now
    }

    /// Where this caller's security events come from.
    package var origin: EventOrigin { EventOrigin(clientAddress: clientAddress, userAgent: userAgent) }
}

/// A caller signed in: the account its session belongs to, read with the session.
package struct SignedInCaller: Sendable {
    package let caller: Caller
    package let user: UserRecord
    package let sessionID: UUID
    /// How the session was authenticated (the `amr` every access token of it carries).
    package let amr: [String]

    package init(caller: Caller, user: UserRecord, sessionID: UUID, amr: [String]) {
        self.caller = caller
        self.user = user
        self.sessionID = sessionID
        self.amr = amr
    }

    package var userID: UUID { user.id }
    package var now: Date { caller.now }
    package var origin: EventOrigin { caller.origin }
    package var language: Language { caller.language }
}
