import AccountAPI
import AccountCore
import HTTPServer

extension SecondFactorRoutes {
    /// `POST /auth/mfa/verify`: the `mfa_token` of a login's `403 mfa_required` and one factor;
    /// `200` with the same token pair and user as a login, the session's `amr` naming the factor.
    /// How a challenge is answered, and refused: ``SecondFactorLoginOperations/verify(_:_:caller:)``.
    func verify(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(SecondFactorVerifyRequest.self)
        var errors = FieldErrors()
        let token = body.mfaToken ?? ""
        if token.isEmpty { errors.add(.required, to: "mfa_token") }
        let proof = try SecondFactorProof.parse(code: body.code, recoveryCode: body.recoveryCode, into: &errors)
        guard errors.isEmpty, let proof else { throw APIError.validation(errors) }
        return .tokenPair(try await operations.verify(token, proof, caller: context.caller))
    }

    private var operations: SecondFactorLoginOperations { services.secondFactorLoginOperations }
}
