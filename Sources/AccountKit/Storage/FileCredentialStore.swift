import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A credential store in one private file, for Linux and other systems without a Keychain:
/// `$XDG_CONFIG_HOME/<appID>/credentials.json` (or `~/.config/<appID>/…`) with ``init(appID:environment:readOnly:)``
/// (what `.platformDefault(appID:)` gives on Linux), or any folder.
///
/// The file is a JSON object from key to base64 value, mode `0600` in a `0700` folder, both created
/// with those modes (never widened first and narrowed after). Every write goes to a new temporary
/// file in the same folder, is flushed to disk and renamed over the old one, so a reader (another
/// process, too) sees the old file or the new one, never half of one. Safe to use from many threads,
/// and from several processes at once: ``sharedLock`` keeps their refreshes apart.
///
/// ```swift
/// let store = FileCredentialStore(appID: "com.example.mbti")
/// try store.store(key: "session", value: data)
/// ```
public final class FileCredentialStore: CredentialStore {
    /// The folder holding the file.
    public let directory: URL
    /// The credentials file.
    public let fileURL: URL
    /// `<fileName>.lock` beside the file, which every process using the file takes around a
    /// refresh (``SessionManager`` does), so two programs sharing one session never both trade
    /// the same refresh token.
    public let sharedLock: CrossProcessLock?
    /// Whether this process only reads the file (``CredentialStore/isReadOnly``).
    public let isReadOnly: Bool
    private let lock = NSLock()

    /// A store in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the folder; created (`0700`) on the first write.
    ///   - fileName: the file's name in it.
    ///   - readOnly: for a program that only uses another's session: it never writes, deletes or
    ///     refreshes (``CredentialStore/isReadOnly``).
    public init(directory: URL, fileName: String = "credentials.json", readOnly: Bool = false) {
        self.directory = directory
        self.fileURL = directory.appendingPathComponent(fileName)
        self.sharedLock = CrossProcessLock(fileURL: directory.appendingPathComponent(fileName + ".lock"))
        self.isReadOnly = readOnly
    }

    /// A store in the app's own folder, ``defaultDirectory(appID:environment:)``.
    public convenience init(appID: String, environment: [String: String] = ProcessInfo.processInfo.environment, readOnly: Bool = false) {
        self.init(directory: Self.defaultDirectory(appID: appID, environment: environment), readOnly: readOnly)
    }

    /// `$XDG_CONFIG_HOME/<appID>` when that variable holds an absolute path, else
    /// `$HOME/.config/<appID>`; a `/` (or a leading `.`) in `appID` becomes `_`, so the folder is
    /// always one level below.
    ///
    /// `$HOME` is read from the environment first: Foundation's `NSHomeDirectory()` on Linux asks
    /// the password database and ignores it, so `HOME=/tmp/x account …` would write elsewhere.
    public static func defaultDirectory(appID: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        var folder = appID.replacingOccurrences(of: "/", with: "_")
        if folder.isEmpty || folder.hasPrefix(".") { folder = "_" + folder }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent(folder)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config").appendingPathComponent(folder)
    }

    /// Stores `value` under `key`, replacing any earlier value.
    public func store(key: String, value: Data) throws {
        guard !isReadOnly else { throw CredentialStoreError.readOnly }
        try lock.withLock {
            var entries = try readEntries()
            entries[key] = value.base64EncodedString()
            try write(entries)
        }
    }

    /// The value under `key`, or `nil` when nothing is stored.
    public func retrieve(key: String) throws -> Data? {
        try lock.withLock {
            guard let text = try readEntries()[key] else { return nil }
            guard let data = Data(base64Encoded: text) else { throw CredentialStoreError.failed("credentials file holds a value that is not base64") }
            return data
        }
    }

    /// Removes the value under `key`; no error when there is none.
    public func remove(key: String) throws {
        guard !isReadOnly else { throw CredentialStoreError.readOnly }
        try lock.withLock {
            var entries = try readEntries()
            guard entries.removeValue(forKey: key) != nil else { return }
            try write(entries)
        }
    }

    /// The file's entries; none when there is no file.
    private func readEntries() throws -> [String: String] {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch CocoaError.fileReadNoSuchFile {
            return [:]
        } catch {
            throw CredentialStoreError.failed("cannot read the credentials file: \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode([String: String].self, from: data)
        } catch {
            throw CredentialStoreError.failed("the credentials file is not a JSON object of strings")
        }
    }

    /// Replaces the file atomically with `entries`.
    private func write(_ entries: [String: String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data: Data
        do { data = try encoder.encode(entries) } catch { throw CredentialStoreError.failed("cannot encode credentials") }
        try PrivateFile.makeDirectory(directory)
        try PrivateFile.replace(fileURL, with: data)
    }
}
