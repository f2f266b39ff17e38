import AccountAPI
import AccountStore
import Foundation
import HTTPServer

extension AccountApp {
    /// Answers one request: request id, language, routing, limits, then the handler; every error
    /// becomes problem+json here and nowhere else, and every reply gets the common headers.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        var context = makeContext(for: request)
        var response: HTTPResponse
        var pattern: String?
        var refusal: String?
        do {
            try checkPath(request)
            let match = router.match(method: request.method, path: request.path)
            pattern = match.pattern
            let handler = try match.handler.get()
            context.parameters = match.parameters
            try checkMediaType(request)
            try await checkAddressLimit(context)
            response = try await handler(context)
        } catch {
            response = problem(for: error, context)
            refusal = (error as? TokenError)?.description
        }
        return finish(response, for: context, route: pattern, refusal: refusal, since: started)
    }

    /// The context of a request: its id, language, client address and time.
    func makeContext(for request: HTTPRequest) -> RequestContext {
        RequestContext(
            request: request, requestID: Self.requestID(from: request.headers["X-Request-Id"]),
            language: Language(acceptLanguage: request.headers["Accept-Language"]),
            clientAddress: clientAddress(of: request), now: services.clock.now())
    }

    /// The problem+json reply for whatever a handler threw; a 5xx is also logged and counted with
    /// its reason (``Metrics/reportServerError(_:status:_:)``).
    func problem(for error: any Error, _ context: RequestContext) -> HTTPResponse {
        let reply: APIError = switch error {
        case let error as APIError: error
        case let error as TokenError: APIError(error)
        case StoreError.unavailable: .serviceUnavailable(retryAfter: 1)
        default: .internalError
        }
        if reply.status >= 500 { metrics.reportServerError(error, status: reply.status, context) }
        return ProblemRenderer.response(for: reply, language: context.language)
    }

    /// Adds the common headers, counts the reply under its route pattern (`nil`: no route's path
    /// matched) and writes the access-log line, with why a token was refused (`refusal`, never the
    /// token itself).
    func finish(
        _ response: HTTPResponse, for context: RequestContext, route pattern: String?, refusal: String? = nil,
        since started: ContinuousClock.Instant
    ) -> HTTPResponse {
        var response = response
        let request = context.request
        decorate(&response, path: request.path, requestID: context.requestID)
        metrics.recordReply(request, response, route: pattern, in: routeTable, since: started)
        if services.configuration.accessLog {
            Log.request(context, status: response.status, duration: started.duration(to: .now), refusal: refusal)
        }
        return response
    }

    /// The reply to a request the HTTP layer refused before routing it (malformed, over a limit,
    /// a body sent chunked or too large, too slow); a refused body is never read.
    public func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse {
        refusedBeforeReading(request, .refusal(refusal))
    }

    private func refusedBeforeReading(_ request: HTTPRequest, _ error: APIError) -> HTTPResponse {
        let requestID = Self.requestID(from: request.headers["X-Request-Id"])
        var response = ProblemRenderer.response(for: error, language: Language(acceptLanguage: request.headers["Accept-Language"]))
        decorate(&response, path: request.path, requestID: requestID)
        return response
    }

    /// Answers cheap requests inside the HTTP thread, without a task: `/healthz`, and
    /// `GET /auth/me` when everything it needs is at hand (see ``inlineProfile(_:)``).
    public func fastHandle(_ request: HTTPRequest) -> HTTPResponse? {
        if request.method == "GET", request.path == "/auth/me" || request.path == "/auth/me/" {
            return inlineProfile(request)
        }
        guard request.method == "GET" || request.method == "HEAD",
            request.path == "/healthz" || request.path == "/healthz/"
        else { return nil }
        var response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"status":"ok"}"#.utf8))
        decorate(&response, path: request.path, requestID: Self.requestID(from: request.headers["X-Request-Id"]))
        return response
    }

    private func decorate(_ response: inout HTTPResponse, path: String, requestID: String) {
        var common: [HTTPHeaders.Element] = [
            ("X-Request-Id", requestID), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
        ]
        // The console's page and assets (`/admin`) bring a policy of their own that lets them run.
        if response.headers["Content-Security-Policy"] == nil {
            common.append(("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"))
        }
        // Accounts, tokens and operators' data: never kept by a cache or a browser's history.
        if path == "/auth" || path.hasPrefix("/auth/") || path == "/admin/api" || path.hasPrefix("/admin/api/") {
            common.append(("Cache-Control", "no-store"))
        }
        response.headers.set(common)
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
        let trustedProxies = services.configuration.trustedProxies
        guard trustedProxies.contains(request.remoteAddress) else { return request.remoteAddress }
        let lines = request.headers.values("X-Forwarded-For")
        guard !lines.isEmpty else { return request.remoteAddress }
        let hops = lines.joined(separator: ",").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // Walk from the nearest hop back and take the first address that is not a trusted proxy.
        return hops.reversed().first { !trustedProxies.contains($0) && !$0.isEmpty } ?? request.remoteAddress
    }

    /// Only paths in normal form are routed: a path with an empty segment (`//auth/me`,
    /// `/auth//me`) or a `.` or `..` segment (`/./auth/me`, `/auth/../auth/me`, also when
    /// percent-encoded) is `404`, so no such spelling can reach a route while missing the rules
    /// keyed on its path (the per-address limit and `no-store` under `/auth/`). A trailing slash
    /// is still the same path. The fast path in ``fastHandle(_:)`` matches exact paths only.
    private func checkPath(_ request: HTTPRequest) throws {
        guard Self.isNormalPath(request.path) else { throw APIError.notFound }
    }

    /// Whether `path` starts with `/` and has no empty, `.` or `..` segment before its end.
    static func isNormalPath(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == 0x2F else { return false }
        var segmentLength = 0, dots = 0
        for byte in bytes.dropFirst() {
            if byte == 0x2F {
                if segmentLength == 0 || (segmentLength == dots && dots <= 2) { return false }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if byte == 0x2E { dots += 1 }
            }
        }
        return segmentLength == 0 || !(segmentLength == dots && dots <= 2)
    }

    /// A body must be JSON (a `charset` parameter is fine); anything else with a body is 415.
    private func checkMediaType(_ request: HTTPRequest) throws {
        guard !request.body.isEmpty else { return }
        guard let header = request.headers["Content-Type"], Self.isJSONMediaType(header) else {
            throw APIError.unsupportedMediaType
        }
    }

    /// Whether a `Content-Type` names `application/json` (any letter case, blanks around it, any
    /// parameters after `;`).
    static func isJSONMediaType(_ header: String) -> Bool {
        let end = header.utf8.firstIndex(of: 0x3B) ?? header.endIndex
        guard let mediaType = HeaderBytes.trimmed(header[..<end].utf8) else { return false }
        return HeaderBytes.equalsIgnoringCase(mediaType, "application/json")
    }

    /// Counts auth requests per client address before any hashing happens: in this process, or
    /// in the database when several servers share it.
    private func checkAddressLimit(_ context: RequestContext) async throws {
        guard services.configuration.sharesAddressLimit else { return try checkLocalAddressLimit(context) }
        let limit = services.configuration.ipRateLimit
        guard limit > 0, context.request.path.hasPrefix("/auth/") else { return }
        let (key, now) = ("address:" + context.clientAddress, context.now)
        let counter = try await services.store.write { try $0.incrementRateCounter(key: key, now: now, window: 60) }
        if counter.count > limit {
            throw APIError.rateLimited(retryAfter: max(1, Int((60 - now.timeIntervalSince(counter.windowStart)).rounded(.up))))
        }
    }

    /// Counts an auth request per client address in this process (servers that don't share counts).
    func checkLocalAddressLimit(_ context: RequestContext) throws {
        let limit = services.configuration.ipRateLimit
        guard limit > 0, context.request.path.hasPrefix("/auth/") else { return }
        if let retryAfter = services.addressLimiter.check(context.clientAddress, now: context.now) {
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
    }
}
