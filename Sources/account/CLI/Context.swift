import AccountAPI
import AccountKit
import Foundation

/// Everything a command needs: its options, the API client, the stored session, and the console.
struct Context: Sendable {
    let invocation: Invocation
    let settings: Settings
    let client: AccountClient
    let store: any CredentialStore
    let console: Console

    init(invocation: Invocation, settings: Settings) {
        self.invocation = invocation
        self.settings = settings
        client = AccountClient(baseURL: settings.server, language: settings.language, userAgent: "account-cli/1.0")
        store = FileCredentialStore(directory: settings.configDirectory)
        console = Console()
    }

    /// Whether `--json` was given.
    var json: Bool { invocation.has("json") }

    /// Whether missing values may be asked for: not with `--no-input` or `--password-stdin`
    /// (standard input then carries passwords, not answers).
    var mayPrompt: Bool { !invocation.has("no-input") && !invocation.has("password-stdin") }

    /// The language of messages.
    var language: Language { settings.language }

    /// Picks the Korean or English text.
    func say(_ english: String, _ korean: String) -> String { language == .ko ? korean : english }

    /// A session manager over the stored credentials.
    func sessionManager() -> SessionManager { SessionManager(client: client, store: store) }

    /// The stored session; throws ``AccountError/notSignedIn`` when there is none.
    func signedIn() async throws -> SessionManager {
        let manager = sessionManager()
        if case .signedOut = try await manager.restore() { throw AccountError.notSignedIn }
        return manager
    }
}
