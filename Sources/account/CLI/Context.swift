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
        // The default transport is an ephemeral URLSession: no cache or cookie files in $HOME.
        client = AccountClient(
            baseURL: settings.server, language: settings.language,
            userAgent: AccountClient.userAgent(program: "account", version: Version.number, host: ProcessInfo.processInfo.hostName))
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

    /// A session manager over the stored credentials; one session per server (the namespace is
    /// the server's address), so `--server` never hands one server's tokens to another.
    func sessionManager() -> SessionManager { SessionManager(client: client, store: store) }

    /// The stored session and its user; throws ``AccountError/notSignedIn`` when there is none.
    func signedIn() async throws -> (SessionManager, User) {
        let manager = sessionManager()
        guard case .signedIn(let user) = try await manager.restore() else { throw AccountError.notSignedIn }
        return (manager, user)
    }

    /// The server's field rules; the built-in ones when it has no policy to give, and a
    /// transport failure at once (before anything is asked).
    func rules() async throws -> FormRules {
        do {
            return FormRules(policy: try await client.policy())
        } catch let error as AccountError where error.isTransport {
            throw error
        } catch {
            return FormRules()
        }
    }
}
