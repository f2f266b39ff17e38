import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

/// The actions on one account, each `POST /admin/api/users/{id}/<raw value>` with a reason.
enum AdminUserAction: String, CaseIterable, Sendable {
    case disable
    case enable
    case endSessions = "end-sessions"
    case resendVerification = "resend-verification"
    case removeSecondFactor = "remove-second-factor"
    case delete

    /// The action's endpoint in the contract.
    var endpoint: Endpoint {
        switch self {
        case .disable: .adminDisableUser
        case .enable: .adminEnableUser
        case .endSessions: .adminEndSessions
        case .resendVerification: .adminResendVerification
        case .removeSecondFactor: .adminRemoveSecondFactor
        case .delete: .adminDeleteUser
        }
    }
}

/// The accounts of the admin API: search, the account page and the actions, each through
/// ``AccountAdministration`` (the same code `account-server admin users` runs).
extension AdminRoutes {
    var administration: AccountAdministration { services.accountAdministration }

    /// `GET /admin/api/users?q=&verified=&mfa=&disabled=&created_after=&created_before=&limit=&after=`.
    func searchUsers(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let query: AdminUserQuery
        do {
            query = try AdminSearchQuery.parse { context.base.request.query[$0] }
        } catch {
            throw APIError.invalidRequest(error.text)
        }
        let (limit, after) = try PageCursor.page(context.base, PageCursor.searchPosition)
        let page = try await administration.search(query, after: after, limit: limit).wire
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: WireJSON.adminUserPage(page))
    }

    /// `GET /admin/api/users/{id}`: the account page.
    func showUser(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let account = try await administration.account(id: try Self.accountID(context), now: context.now)
        return try .json(account.wire)
    }

    /// `POST /admin/api/users/{id}/<action>` with `{"reason"}`.
    func perform(_ action: AdminUserAction, _ context: AuthenticatedContext) async throws -> HTTPResponse {
        let id = try Self.accountID(context)
        let reason = try Self.reason(context.base)
        let actor = OperatorActor.account(context.userID, requestID: context.base.requestID)
        let administration = self.administration
        let (now, language) = (context.now, context.language)
        let reply: HTTPResponse
        switch action {
        case .disable: reply = try .json(try await administration.disable(id, by: actor, reason: reason, now: now).wire)
        case .enable: reply = try .json(try await administration.enable(id, by: actor, reason: reason, now: now).wire)
        case .endSessions:
            reply = try .json(AdminSessionsEnded(ended: try await administration.endSessions(id, by: actor, reason: reason, now: now)))
        case .resendVerification:
            try await administration.resendVerification(id, by: actor, reason: reason, language: language, now: now)
            reply = HTTPResponse(status: 202, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        case .removeSecondFactor:
            reply = try .json(try await administration.removeSecondFactor(id, by: actor, reason: reason, language: language, now: now).wire)
        case .delete:
            try await administration.delete(id, by: actor, reason: reason, now: now)
            reply = .noContent
        }
        services.events.record(context.caller.event(.logged(.adminAction), ["action": action.rawValue, "target_id": id.lowercasedText]))
        return reply
    }

    /// The `{id}` of the path; `not_found` when it is not a UUID.
    static func accountID(_ context: AuthenticatedContext) throws -> UUID {
        guard let id = context.base.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw APIError.notFound }
        return id
    }

    /// The action's reason: 1 to 500 characters once blanks around it are trimmed (an empty body
    /// counts as no reason).
    static func reason(_ context: RequestContext) throws -> String {
        let body = context.request.body.isEmpty ? AdminActionRequest(reason: nil) : try context.decodeBody(AdminActionRequest.self)
        let reason = (body.reason ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if reason.isEmpty { throw APIError.validation("reason", .required) }
        if reason.count > AdminActionRequest.maxReasonLength { throw APIError.validation("reason", .tooLong) }
        return reason
    }
}
