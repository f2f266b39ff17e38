import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real SMTP server on loopback for one test: `scripts/smtp-sink.py` (aiosmtpd) in a child
/// process, saving each accepted message (`.eml`) and its envelope (`.json`) in a folder of its
/// own; killed (SIGKILL, which no inherited signal mask blocks) when the test lets go of it.
public final class SmtpSink: Sendable {
    public let port: Int
    /// Where the accepted messages are saved.
    public let folder: TemporaryFolder
    private let child: ChildProcess

    /// Starts the sink and waits (at most 30 s) until it listens.
    /// - Parameters:
    ///   - refuse: how many DATA commands to answer with 451 before accepting.
    ///   - auth: `user:password` to require AUTH with.
    ///   - starttls: PEM certificate and key files; the sink then offers STARTTLS and requires it.
    ///   - tls: PEM certificate and key files; the sink then speaks TLS from the start (smtps://).
    public init(
        refuse: Int = 0, auth: String? = nil, starttls: (certificate: String, key: String)? = nil,
        tls: (certificate: String, key: String)? = nil
    ) async throws {
        folder = try TemporaryFolder()
        var arguments = [PackageFiles.url("scripts/smtp-sink.py").path, "--dir", folder.url.path, "--port", "0", "--refuse", String(refuse)]
        if let auth { arguments += ["--auth", auth] }
        if let starttls { arguments += ["--starttls", starttls.certificate, starttls.key] }
        if let tls { arguments += ["--tls", tls.certificate, tls.key] }
        // Debian's interpreter is the one python3-aiosmtpd installs into.
        let debianPython = "/usr/bin/python3"
        child = FileManager.default.isExecutableFile(atPath: debianPython)
            ? try ChildProcess(arguments: arguments, binary: URL(fileURLWithPath: debianPython))
            : try ChildProcess(arguments: ["python3"] + arguments, binary: URL(fileURLWithPath: "/usr/bin/env"))
        // The script prints "PORT <n>" once it accepts connections.
        let deadline = ContinuousClock.now + .seconds(30)
        var port: Int?
        while port == nil, !child.hasExited, ContinuousClock.now < deadline {
            port = child.standardOutput.text.firstMatch(of: /PORT ([0-9]+)/).flatMap { Int($0.output.1) }
            if port == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let port else {
            child.send(SIGKILL)
            throw TestFailure("smtp-sink.py did not start (needs python3-aiosmtpd: apt-get install -y python3-aiosmtpd):\n\(child.transcript)")
        }
        self.port = port
    }

    /// `smtp://127.0.0.1:<port>`, with `userInfo` (already percent-encoded) before the host.
    public func url(userInfo: String? = nil) -> URL {
        URL(string: "smtp://\(userInfo.map { $0 + "@" } ?? "")127.0.0.1:\(port)")!
    }

    /// The text of every saved message, in arrival order.
    public func messages() -> [String] {
        MailFolder(folder: folder.url).messages()
    }

    /// Every saved message with its envelope, in arrival order.
    public func received() throws -> [(mail: String, envelope: Envelope)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".eml") }.sorted()
        return try names.map { name in
            let mail = try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
            let json = try Data(contentsOf: folder.url.appendingPathComponent(name.dropLast(4) + ".json"))
            return (mail, try JSONDecoder().decode(Envelope.self, from: json))
        }
    }

    /// The SMTP envelope the sink saw: MAIL FROM, RCPT TO and the MAIL FROM parameters.
    public struct Envelope: Decodable, Sendable {
        public var mail_from: String
        public var rcpt_tos: [String]
        public var mail_options: [String]
        public var tls: Bool
    }
}
