import AccountCore
import HTTPServer

/// One step a request passes on its way to a handler, and its reply on the way back: an object
/// made once, when the routes are built, and shared by every request of its sets.
///
/// The ``Pipeline`` runs every step on the HTTP thread first, in its group's order; a step that
/// can only finish by waiting (a database write, a signature check, a busy connection) says so,
/// and the rest of the pipeline, from that step on, continues in a task. So a request that nothing
/// makes wait (`GET /auth/me` with a token verified before) is answered where it arrived, and
/// every request meets the same checks in the same order either way.
protocol Middleware: AnyObject, Sendable {
    /// The step without waiting. Throws to refuse the request; returns ``Readiness/mustWait``,
    /// having changed nothing, when the step can only be done by waiting.
    func enter(_ context: inout RequestContext) throws -> Readiness
    /// The step where waiting is fine (in a task); only called after ``enter(_:)`` said
    /// ``Readiness/mustWait``.
    func enterWaiting(_ context: inout RequestContext) async throws
    /// The reply on its way out, the innermost step first; a refusal's problem too
    /// (`context.failure` says what was thrown). Only steps that were entered leave.
    func leave(_ response: inout HTTPResponse, _ context: RequestContext)
    /// Whether ``leave(_:_:)`` also marks the replies the HTTP layer refuses before routing
    /// (headers); steps that count or log leave those alone.
    var marksRefusals: Bool { get }
}

/// Whether a step finished without waiting.
enum Readiness: Sendable {
    case done
    case mustWait
}

extension Middleware {
    func enter(_ context: inout RequestContext) throws -> Readiness { .done }

    func enterWaiting(_ context: inout RequestContext) async throws {
        _ = try enter(&context)
    }

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {}

    var marksRefusals: Bool { false }
}
