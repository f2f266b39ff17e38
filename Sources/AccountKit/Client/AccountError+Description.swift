import AccountAPI
import Foundation

extension AccountError: LocalizedError {
    /// A sentence for the user, in the language of the ``AccountClient`` that last sent a
    /// request (the app's own language, ``AccountClient/preferredLanguage()``, unless a client
    /// was made with another), so `error.localizedDescription` matches the server's texts.
    /// With clients of several languages, ask ``localizedDescription(in:)`` with the right one.
    public var errorDescription: String? { localizedDescription(in: ClientLanguage.current) }

    /// A sentence for the user in `language`.
    ///
    /// ```swift
    /// AccountError.rateLimited(retryAfter: 42).localizedDescription(in: .ko)   // "요청이 너무 많아요. 42초 후에 다시 시도해 주세요."
    /// ```
    public func localizedDescription(in language: Language) -> String {
        let ko = language == .ko
        switch self {
        case .invalidInput(let fields):
            return fields.sorted { $0.key < $1.key }.first?.value.first?.message
                ?? Messages.detail(.validationFailed, language)
        case .proofRequired(let missing): return StepUpTexts.missing(missing)(language)
        case .invalidCredentials: return Messages.detail(.invalidCredentials, language)
        case .emailNotVerified: return Messages.detail(.emailNotVerified, language)
        case .conflict(let code):
            if code != .emailTaken { return Messages.detail(code, language) }
            return ko ? "이미 사용 중인 이메일이에요." : "This email address is already in use."
        case .codeRejected(let code): return Messages.detail(code, language)
        case .rateLimited(let retryAfter):
            guard let retryAfter else { return Messages.detail(.rateLimited, language) }
            return ko ? "요청이 너무 많아요. \(retryAfter)초 후에 다시 시도해 주세요." : "Too many requests. Try again in \(retryAfter) seconds."
        case .sessionExpired: return ko ? "로그인이 만료되었어요. 다시 로그인해 주세요." : "Your session has expired. Please sign in again."
        case .sessionRevoked: return ko ? "로그아웃되었어요. 다시 로그인해 주세요." : "You have been signed out. Please sign in again."
        case .notSignedIn: return ko ? "먼저 로그인해 주세요." : "Please sign in first."
        case .refused(let problem): return problem.detail ?? problem.title
        case .server(let status, _): return ko ? "서버에 문제가 생겼어요 (\(status)). 잠시 후 다시 시도해 주세요." : "The server ran into a problem (\(status)). Please try again later."
        case .undecodableReply(let status): return ko ? "서버 응답을 읽을 수 없어요 (\(status))." : "The server's reply could not be read (\(status))."
        case .transport: return ko ? "서버에 연결할 수 없어요. 네트워크를 확인해 주세요." : "Cannot reach the server. Check your connection."
        case .storage(let problem): return problem.localizedDescription(in: language)
        case .secondFactorRequired: return Messages.detail(.mfaRequired, language)
        case .secondFactorChallengeEnded(let code): return SecondFactorTexts.challengeEnded(code)(language)
        }
    }
}

/// The language `localizedDescription` speaks: the last one an ``AccountClient`` sent a request in.
///
/// An error value cannot carry its client's language without changing every case apps switch
/// over, and a process nearly always has clients of one language; so the client records its
/// language as it sends. Tests give their task tree a recorder of its own (`recorder.withValue`),
/// so clients of other tests running at the same time cannot change what they read.
enum ClientLanguage {
    /// Where the language is recorded: one for the process, unless a task bound another.
    static let recorder = TaskLocal(wrappedValue: Recorder.process)

    /// The language of the last request, else the app's own.
    static var current: Language { recorder.get().language ?? AccountClient.preferredLanguage() }

    /// Records the language of a request being sent.
    static func use(_ language: Language) { recorder.get().language = language }

    /// One recorded language, safe to read and write from any thread.
    final class Recorder: @unchecked Sendable {
        static let process = Recorder()
        private let lock = NSLock()
        private var recorded: Language?

        var language: Language? {
            get { lock.withLock { recorded } }
            set { lock.withLock { recorded = newValue } }
        }
    }
}
