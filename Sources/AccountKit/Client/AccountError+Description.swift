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
        switch self {
        case .invalidInput(let fields):
            fields.sorted { $0.key < $1.key }.first?.value.first?.message ?? Messages.detail(.validationFailed, language)
        case .proofRequired(let missing): StepUpTexts.missing(missing)(language)
        case .invalidCredentials: Messages.detail(.invalidCredentials, language)
        case .emailNotVerified: Messages.detail(.emailNotVerified, language)
        case .conflict(let code): Messages.detail(code, language)
        case .codeRejected(let code): Messages.detail(code, language)
        case .rateLimited(let retryAfter):
            retryAfter.map { AccountErrorTexts.rateLimited(retryAfter: $0)(language) } ?? Messages.detail(.rateLimited, language)
        case .sessionExpired: AccountErrorTexts.sessionExpired(language)
        case .sessionRevoked: AccountErrorTexts.sessionRevoked(language)
        case .notSignedIn: AccountErrorTexts.notSignedIn(language)
        case .refused(let problem): problem.detail ?? problem.title
        case .server(let status, _): AccountErrorTexts.server(status: status)(language)
        case .undecodableReply(let status): AccountErrorTexts.undecodableReply(status: status)(language)
        case .transport: AccountErrorTexts.transport(language)
        case .storage(let problem): problem.localizedDescription(in: language)
        case .secondFactorRequired: Messages.detail(.mfaRequired, language)
        case .secondFactorChallengeEnded(let code): SecondFactorTexts.challengeEnded(code)(language)
        }
    }
}

/// The SDK's own words for the errors the server's catalog (``ErrorCatalog``) has no text for.
enum AccountErrorTexts {
    static func rateLimited(retryAfter: Int) -> LocalizedText {
        LocalizedText(en: "Too many requests. Try again in \(retryAfter) seconds.", ko: "요청이 너무 많아요. \(retryAfter)초 후에 다시 시도해 주세요.")
    }
    static let sessionExpired = LocalizedText(en: "Your session has expired. Please sign in again.", ko: "로그인이 만료되었어요. 다시 로그인해 주세요.")
    static let sessionRevoked = LocalizedText(en: "You have been signed out. Please sign in again.", ko: "로그아웃되었어요. 다시 로그인해 주세요.")
    static let notSignedIn = LocalizedText(en: "Please sign in first.", ko: "먼저 로그인해 주세요.")
    static func server(status: Int) -> LocalizedText {
        LocalizedText(
            en: "The server ran into a problem (\(status)). Please try again later.", ko: "서버에 문제가 생겼어요 (\(status)). 잠시 후 다시 시도해 주세요.")
    }
    static func undecodableReply(status: Int) -> LocalizedText {
        LocalizedText(en: "The server's reply could not be read (\(status)).", ko: "서버 응답을 읽을 수 없어요 (\(status)).")
    }
    static let transport = LocalizedText(en: "Cannot reach the server. Check your connection.", ko: "서버에 연결할 수 없어요. 네트워크를 확인해 주세요.")
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
