import AccountAPI
import AccountCore
import HTTPServer

extension SessionRoutes {
    /// `POST /auth/refresh`: trades a refresh token for a new pair (rotation).
    ///
    /// A token used before revokes its whole session (`refresh_token_reused`), unless it comes
    /// again within the grace window of its first use from the client that used it (same
    /// User-Agent and address): then it gets the same new pair again, so two tabs or a retry after
    /// a lost reply do not log the user out, while a thief replaying it elsewhere does not get in
    /// (RFC 9700 §4.14.2). How it is decided: ``RefreshOperations/refresh(_:caller:)``.
    func refresh(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(RefreshRequest.self)
        guard let text = body.refresh, !text.isEmpty else { throw APIError.validation("refresh", .required) }
        return .tokenPair(try await operations.refresh(text, caller: context.caller))
    }

    private var operations: RefreshOperations { services.refreshOperations }
}
