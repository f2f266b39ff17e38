import AccountAPI
import AccountKit
import Foundation

/// Where the client talks to and keeps its session, from options and the environment.
struct Settings: Sendable {
    /// The server's base URL.
    let server: URL
    /// The folder of the credentials file.
    let configDirectory: URL
    /// The language of messages and of the server's texts.
    let language: Language

    /// The default server, the address the original app calls.
    static let defaultServer = "http://localhost:8000"
    /// The folder name of the session under the config folder (`~/.config/mbti-playground`).
    static let appID = "mbti-playground"

    /// `--server` over `ACCOUNT_SERVER` over the default; `--config-dir` over `ACCOUNT_CONFIG_DIR`
    /// over `$XDG_CONFIG_HOME/mbti-playground` over `$HOME/.config/mbti-playground`;
    /// the language from `LC_ALL`, `LC_MESSAGES` or `LANG` (the first that is set, as POSIX orders them).
    init(invocation: Invocation, environment: [String: String]) throws(UsageError) {
        let text = invocation.value("server") ?? environment["ACCOUNT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultServer
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false
        else {
            throw UsageError(Self.language(environment) == .ko ? "\(KoreanParticle.topic.attached(to: "'\(text)'")) http(s) URL이 아니에요" : "'\(text)' is not an http(s) URL")
        }
        server = url
        let directory = invocation.value("config-dir") ?? environment["ACCOUNT_CONFIG_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        configDirectory = directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileCredentialStore.defaultDirectory(appID: Self.appID, environment: environment)
        language = Self.language(environment)
    }

    /// Korean when the locale variable in force starts with `ko`, else English.
    static func language(_ environment: [String: String]) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return locale?.lowercased().hasPrefix("ko") == true ? .ko : .en
    }
}
