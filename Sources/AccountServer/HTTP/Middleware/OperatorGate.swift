import AccountAPI
import AccountCore

/// The operators' groups (`/admin/api/...`), after authentication: the account has the admin
/// role and its session was opened with a second factor. The role is read with the session on
/// every request, so a revoked operator is refused at once.
final class OperatorGate: Middleware {
    func enter(_ context: inout RequestContext) throws -> Readiness {
        guard let authentication = context.authentication else { throw APIError.internalError }
        guard authentication.user.isAdmin else { throw APIError.adminRequired }
        guard authentication.amr.contains(where: AuthenticationMethod.secondFactors.contains) else {
            throw APIError.secondFactorRequired
        }
        return .done
    }
}
