import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

/// The operators' figures: `GET /admin/api/figures`, behind the operator gate.
struct FiguresRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.adminFigures, in: sets.operators, figures)
    }

    /// `GET /admin/api/figures`: sign-ups, logins by outcome, refreshes and codes mailed, per hour
    /// for the last 24 hours and per day for the last 30 days (UTC), from the hourly counters of
    /// every server on the database. This server's counts are flushed first, so they are there to
    /// the moment; another server's may be a few seconds behind.
    func figures(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        try await .json(operations.figures(now: context.now))
    }

    private var operations: FiguresOperations { services.figuresOperations }
}
