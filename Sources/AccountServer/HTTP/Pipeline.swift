import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

/// The one way a request is answered: its context made, the server-wide steps (headers,
/// metrics, access log, path form), routing, the route's own steps, its handler, and the way
/// back out through every step that was entered. Every error becomes problem+json here.
///
/// Steps run on the HTTP thread until one has to wait (see ``Middleware``); from there on the
/// same walk continues in a task. Nothing is run twice and nothing is skipped either way.
struct Pipeline: Sendable {
    /// The steps every request passes before routing, outermost first.
    let outer: [any Middleware]
    let router: Router
    let clock: ServerClock
    /// Proxies whose `X-Forwarded-For` names the client.
    let trustedProxies: [String]
    /// Where a 5xx is reported with its reason.
    let metrics: Metrics

    /// How far a request has come: the outer steps entered, its route entry once routed, the
    /// entry's steps entered.
    private struct Progress {
        var outer = 0
        var entry: RouteEntry?
        var inner = 0
        /// When routing refused the request: the steps whose marks the refusal carries.
        var refusalSteps: [any Middleware] = []
    }

    /// Answers `request` now, or hands back the rest of its walk to run in a task.
    func respond(to request: HTTPRequest) -> HTTPReply {
        var context = makeContext(for: request)
        var progress = Progress()
        let response: HTTPResponse
        do {
            guard try advance(&context, &progress), let entry = progress.entry,
                case .immediate(let handler) = entry.responder
            else {
                return .pending { [context, progress] in await self.finishWaiting(context, progress) }
            }
            response = try handler(context)
        } catch {
            return .ready(refuse(error, &context, progress))
        }
        return .ready(leave(response, context, progress))
    }

    /// Answers `request`, waiting where a step has to (tests and the in-process transport).
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch respond(to: request) {
        case .ready(let response): response
        case .pending(let work): await work()
        }
    }

    /// The reply to a request the HTTP layer refused before routing it (malformed, over a limit,
    /// a body sent chunked or too large, too slow); a refused body is never read. It carries the
    /// headers its route's replies carry.
    func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse {
        let context = makeContext(for: request)
        var response = ProblemRenderer.response(for: .refusal(refusal), language: context.language)
        let match = router.match(method: request.method, path: request.path)
        let routeSteps = (try? match.entry.get())?.steps ?? match.refusalSteps
        for step in (outer + routeSteps).reversed() where step.marksRefusals {
            step.leave(&response, context)
        }
        return response
    }

    /// Runs steps without waiting from where `progress` stands; `true` once every step is done
    /// (the handler is next), `false` at the first that must wait.
    private func advance(_ context: inout RequestContext, _ progress: inout Progress) throws -> Bool {
        while progress.outer < outer.count {
            guard try outer[progress.outer].enter(&context) == .done else { return false }
            progress.outer += 1
        }
        let entry = try route(&context, &progress)
        while progress.inner < entry.steps.count {
            guard try entry.steps[progress.inner].enter(&context) == .done else { return false }
            progress.inner += 1
        }
        return true
    }

    /// The rest of a walk in a task: the step where it stopped in its waiting form, the steps
    /// after it as ``advance(_:_:)`` runs them (without waiting where they can), then the handler.
    private func finishWaiting(_ context: RequestContext, _ progress: Progress) async -> HTTPResponse {
        var (context, progress) = (context, progress)
        do {
            while progress.outer < outer.count || progress.inner < (progress.entry?.steps.count ?? 0) {
                if progress.outer < outer.count {
                    try await outer[progress.outer].enterWaiting(&context)
                    progress.outer += 1
                } else if let entry = progress.entry {
                    try await entry.steps[progress.inner].enterWaiting(&context)
                    progress.inner += 1
                }
                if try advance(&context, &progress) { break }
            }
            guard let entry = progress.entry else { throw APIError.internalError }
            let response = switch entry.responder {
            case .immediate(let handler): try handler(context)
            case .waiting(let handler): try await handler(context)
            }
            return leave(response, context, progress)
        } catch {
            return refuse(error, &context, progress)
        }
    }

    /// The request's route entry, found once: its pattern and parameters go into the context.
    private func route(_ context: inout RequestContext, _ progress: inout Progress) throws -> RouteEntry {
        if let entry = progress.entry { return entry }
        let match = router.match(method: context.request.method, path: context.request.path)
        context.route = match.pattern
        let entry: RouteEntry
        switch match.entry {
        case .success(let found): entry = found
        case .failure(let refusal):
            progress.refusalSteps = match.refusalSteps
            throw refusal.error
        }
        context.parameters = match.parameters
        progress.entry = entry
        return entry
    }

    /// `response` back out through every step that was entered, innermost first.
    private func leave(_ response: HTTPResponse, _ context: RequestContext, _ progress: Progress) -> HTTPResponse {
        var response = response
        // Room for the headers the steps add on the way out, in one allocation.
        response.headers.reserveCapacity(response.headers.count + 8)
        if let entry = progress.entry {
            for index in stride(from: progress.inner - 1, through: 0, by: -1) { entry.steps[index].leave(&response, context) }
        } else {
            for step in progress.refusalSteps.reversed() where step.marksRefusals { step.leave(&response, context) }
        }
        for index in stride(from: progress.outer - 1, through: 0, by: -1) { outer[index].leave(&response, context) }
        return response
    }

    /// The problem+json reply for whatever a step or handler threw, on its way out; a 5xx is also
    /// logged and counted with its reason (``Metrics/reportServerError(_:status:_:)``).
    private func refuse(_ error: any Error, _ context: inout RequestContext, _ progress: Progress) -> HTTPResponse {
        let reply: APIError = switch error {
        case let error as APIError: error
        case let error as TokenError: APIError(error)
        case StoreError.unavailable: .serviceUnavailable(retryAfter: 1)
        default: .internalError
        }
        if reply.status >= 500 { metrics.reportServerError(error, status: reply.status, context) }
        context.failure = error
        return leave(ProblemRenderer.response(for: reply, language: context.language), context, progress)
    }

    /// The context of a request: its id, language, client address and time.
    private func makeContext(for request: HTTPRequest) -> RequestContext {
        RequestContext(
            request: request, requestID: Self.requestID(from: request.headers["X-Request-Id"]),
            language: Language(acceptLanguage: request.headers["Accept-Language"]),
            clientAddress: clientAddress(of: request), now: clock.now())
    }

    /// A client's id if it is short and plain (letters, digits, `-_.:`), else a new UUID.
    static func requestID(from header: String?) -> String {
        if let header, (1...128).contains(header.utf8.count),
            header.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            })
        {
            return header
        }
        return RequestIDs.next()
    }

    /// The socket peer, or the last address a trusted proxy put in `X-Forwarded-For`.
    ///
    /// Every `X-Forwarded-For` line counts, joined in order (RFC 9110 §5.3): a client can send a
    /// line of its own, but the address the proxy appends comes after it, and the walk starts there.
    func clientAddress(of request: HTTPRequest) -> String {
        guard trustedProxies.contains(request.remoteAddress) else { return request.remoteAddress }
        let lines = request.headers.values("X-Forwarded-For")
        guard !lines.isEmpty else { return request.remoteAddress }
        let hops = lines.joined(separator: ",").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // Walk from the nearest hop back and take the first address that is not a trusted proxy.
        return hops.reversed().first { !trustedProxies.contains($0) && !$0.isEmpty } ?? request.remoteAddress
    }
}
