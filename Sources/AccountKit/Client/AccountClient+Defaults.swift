import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AccountClient {
    /// The app's own language when it is one the API speaks. On Apple platforms the first of
    /// `Bundle.main.preferredLocalizations` (the user's choice among the languages the app ships),
    /// not the device's list alone, so an English-only app stays English on a Korean phone.
    /// Elsewhere the locale variables of the environment (``Language/init(localeEnvironment:)``),
    /// as every command-line program reads them.
    public static func preferredLanguage() -> Language {
        #if canImport(Darwin)
        Language(localizations: Bundle.main.preferredLocalizations)
        #else
        Language(localeEnvironment: ProcessInfo.processInfo.environment)
        #endif
    }

    /// `User-Agent` from the app's bundle and this device: name, version and build of the app,
    /// device model, system and version, e.g. `MBTI%20Playground/1.2 (iPhone15,2; iOS 17.4; build 42) AccountKit`.
    public static func defaultUserAgent(bundle: Bundle = .main) -> String {
        UserAgent.app(
            info: bundle.infoDictionary ?? [:], processName: ProcessInfo.processInfo.processName, device: .current
        ).header
    }

    /// A `User-Agent` naming a program and the host it runs on, e.g. a command-line tool's
    /// `account/1.0 (build-box; Linux 6.1) AccountKit`.
    public static func userAgent(program: String, version: String, host: String) -> String {
        let device = DeviceInfo.current
        return UserAgent(name: program, version: version, details: [host, "\(device.system) \(device.systemVersion)"]).header
    }

    /// A session that keeps nothing on disk (no cache, no cookie store): replies under `/auth`
    /// are `no-store` anyway, and a terminal client must not leave files in the home folder.
    static let ephemeralSession = URLSession(configuration: .ephemeral)
}

extension Language {
    /// The language the POSIX locale variables choose: the first of `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` that is set and not empty (`ko_KR.UTF-8` is Korean); English for `C`, `POSIX`, none,
    /// or a language the API does not speak.
    public init(localeEnvironment environment: [String: String]) {
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        // `language[_territory][.codeset][@modifier]`
        let name = value.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
        self.init(localizations: [name])
    }

    /// The first of `localizations` (best first, as `Bundle.preferredLocalizations` lists them)
    /// that the API speaks; English when none is.
    public init(localizations: [String]) {
        for identifier in localizations {
            let primary = identifier.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
            if let primary, let language = Language(rawValue: primary) {
                self = language
                return
            }
        }
        self = .en
    }
}

extension SessionInfo {
    /// The device for people: "MBTI Playground 1.2 · iPhone15,2 · iOS 17.4" for a `User-Agent`
    /// the SDK wrote, the header as it is for any other, `nil` without one.
    public var deviceName: String? { UserAgent.deviceName(of: userAgent) }
}
