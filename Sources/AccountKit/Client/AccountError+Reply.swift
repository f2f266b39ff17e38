import AccountAPI

extension AccountError {
    /// The HTTP status of the reply this error stands for, when the error carries it: a refusal
    /// the SDK has no case of (``refused(_:)``, the problem's `status`), a server failure
    /// (``server(status:problem:)``) or a reply it could not read (``undecodableReply(status:)``).
    /// `nil` for the cases that name the refusal themselves (``invalidCredentials``…, whose case
    /// is the answer), for transport and storage failures, and for ``notSignedIn``.
    public var httpStatus: Int? {
        switch self {
        case .refused(let problem): problem.status
        case .server(let status, _): status
        case .undecodableReply(let status): status == 0 ? nil : status
        default: nil
        }
    }

    /// The server's problem body (RFC 9457) of ``refused(_:)`` and ``server(status:problem:)``,
    /// for a log or a bug report: its `type`, `title`, `status`, `code`, `detail`, `message`,
    /// field errors and `methods`, without the single-use tokens and the address a problem may
    /// carry (`mfa_token`, `continuation_token`, `email`; the cases that need them keep them).
    public var problem: Problem? {
        let carried: Problem? =
            switch self {
            case .refused(let problem): problem
            case .server(_, let problem): problem
            default: nil
            }
        guard let carried else { return nil }
        return Problem(
            type: carried.type, title: carried.title, status: carried.status, code: carried.code, detail: carried.detail,
            message: carried.message, errors: carried.errors, methods: carried.methods, expiresIn: carried.expiresIn)
    }
}
