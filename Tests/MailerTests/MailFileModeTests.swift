import Foundation
import Testing
import Mailer

/// Messages hold codes: files are 0600 and the folders the transport makes 0700, whatever the
/// umask (set for the moment of each test, one test at a time: the umask is the process's).
@Suite(.serialized) struct MailFileModeTests {
    func mode(_ path: String) -> mode_t {
        var status = stat()
        stat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test(arguments: [mode_t(0o000), 0o022, 0o077])
    func filesAre0600AndNewFolders0700(umaskValue: mode_t) async throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        let folder = root.appendingPathComponent("a/b/mail")
        let old = umask(umaskValue)
        let transport: FileMailTransport
        do {
            defer { umask(old) }
            transport = try FileMailTransport(directory: folder, sender: "no-reply@mbti.example")
            try await transport.send(MailMessage(to: "mina@example.com", subject: "code", text: "123456"))
        }
        for made in ["a", "a/b", "a/b/mail"] {
            #expect(mode(root.appendingPathComponent(made).path) == 0o700, "\(made)")
        }
        #expect(mode(root.path) == 0o755, "a folder that existed keeps its mode")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1 && names[0].hasSuffix(".eml"), "no temporary file left: \(names)")
        for name in names {
            #expect(mode(folder.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
    }

    @Test func anExistingFolderKeepsItsModeAndAFileInTheWayIsAClearError() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(root.path, 0o750)
        _ = try FileMailTransport(directory: root, sender: "no-reply@mbti.example")
        #expect(mode(root.path) == 0o750)
        let file = root.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(throws: MailError.self) { try FileMailTransport(directory: file, sender: "no-reply@mbti.example") }
        #expect(throws: MailError.self) { try FileMailTransport(directory: file.appendingPathComponent("below"), sender: "no-reply@mbti.example") }
    }
}
