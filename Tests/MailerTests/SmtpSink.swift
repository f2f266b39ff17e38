import Foundation
import TestSupport
import Testing

/// A real SMTP server on loopback for one test: `scripts/smtp-sink.py` (aiosmtpd) in a child
/// process, saving each accepted message in a temporary folder.
final class SmtpSink: @unchecked Sendable {
    let port: Int
    let folder: URL
    private let process: Process

    /// Starts the sink and waits until it listens.
    /// - Parameters:
    ///   - refuse: how many DATA commands to answer with 451 before accepting.
    ///   - auth: `user:password` to require AUTH with.
    ///   - starttls: PEM certificate and key files; the sink then offers STARTTLS and requires it.
    ///   - tls: PEM certificate and key files; the sink then speaks TLS from the start (smtps://).
    init(
        refuse: Int = 0, auth: String? = nil, starttls: (certificate: String, key: String)? = nil,
        tls: (certificate: String, key: String)? = nil
    ) throws {
        folder = temporaryFolder()
        let script = PackageFiles.url("scripts/smtp-sink.py")
        process = Process()
        // Debian's interpreter is the one python3-aiosmtpd installs into.
        let debianPython = "/usr/bin/python3"
        if FileManager.default.isExecutableFile(atPath: debianPython) {
            process.executableURL = URL(fileURLWithPath: debianPython)
            process.arguments = [script.path]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path]
        }
        process.arguments! += ["--dir", folder.path, "--port", "0", "--refuse", String(refuse)]
        if let auth { process.arguments! += ["--auth", auth] }
        if let starttls { process.arguments! += ["--starttls", starttls.certificate, starttls.key] }
        if let tls { process.arguments! += ["--tls", tls.certificate, tls.key] }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try launch(process)

        // The script prints "PORT <n>" once it accepts connections; EOF means it died.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.firstMatch(of: /PORT (\d+)/), let port = Int(match.output.1) else {
            process.waitUntilExit()
            let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw SinkFailure("smtp-sink.py did not start (needs python3-aiosmtpd: "
                + "apt-get install -y python3-aiosmtpd): \(reason)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            // SIGKILL: the child inherits the spawning thread's signal mask, which may block SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// `smtp://127.0.0.1:<port>`, with `userInfo` (already percent-encoded) before the host.
    func url(userInfo: String? = nil) -> URL {
        URL(string: "smtp://\(userInfo.map { $0 + "@" } ?? "")127.0.0.1:\(port)")!
    }

    /// Every saved message with its envelope, in arrival order.
    func received() throws -> [(mail: String, envelope: Envelope)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".eml") }.sorted()
        return try names.map { name in
            let mail = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let json = try Data(contentsOf: folder.appendingPathComponent(name.dropLast(4) + ".json"))
            return (mail, try JSONDecoder().decode(Envelope.self, from: json))
        }
    }

    /// The SMTP envelope the sink saw: MAIL FROM, RCPT TO and the MAIL FROM parameters.
    struct Envelope: Decodable {
        var mail_from: String
        var rcpt_tos: [String]
        var mail_options: [String]
        var tls: Bool
    }
}

struct SinkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A loopback port nothing listens on: bound to get a free number, then closed.
func closedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw SinkFailure("socket failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw SinkFailure("bind failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
