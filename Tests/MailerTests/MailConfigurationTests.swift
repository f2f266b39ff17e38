import Foundation
import Testing
import Mailer

@Suite struct MailConfigurationTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"

    @Test(arguments: [
        ("console", MailDestination.console),
        (" Console ", .console),
        ("file:///tmp/x", .directory(URL(fileURLWithPath: "/tmp/x", isDirectory: true))),
        ("file://localhost/tmp/x", .directory(URL(fileURLWithPath: "/tmp/x", isDirectory: true))),
        ("file:/tmp/x/", .directory(URL(fileURLWithPath: "/tmp/x", isDirectory: true))),
        ("file:///tmp/my%20mail", .directory(URL(fileURLWithPath: "/tmp/my mail", isDirectory: true))),
    ])
    func parsesKnownDestinations(option: String, expected: MailDestination) throws {
        #expect(try MailConfiguration.destination(for: option) == expected)
    }

    @Test func relativeFolderResolvesAgainstTheCurrentDirectory() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let destination = try MailConfiguration.destination(for: "file:rel/dir")
        #expect(destination == .directory(URL(fileURLWithPath: cwd + "/rel/dir", isDirectory: true).standardizedFileURL))
    }

    @Test(arguments: ["", "bogus", "file:", "file://", "file://mailhost/x", "http://example.com", "consoles"])
    func refusesUnknownValuesListingTheChoices(option: String) {
        #expect {
            try MailConfiguration.transport(for: option, sender: sender)
        } throws: { error in
            guard case MailError.invalidConfiguration(let text) = error else { return false }
            return text.contains("file:") && (text.contains("smtp://") || option.hasPrefix("file:"))
        }
    }

    @Test func consoleOptionBuildsAConsoleTransport() throws {
        #expect(try MailConfiguration.transport(for: "console", sender: sender) is ConsoleMailTransport)
    }

    @Test func fileOptionBuildsAFileTransportAndCreatesTheFolder() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = try MailConfiguration.transport(for: "file://" + folder.path, sender: sender)
        let file = try #require(transport as? FileMailTransport)
        #expect(file.directory.standardizedFileURL.path == folder.standardizedFileURL.path)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue)
    }

    @Test(arguments: ["", "not an address", "a@b.example\r\nBcc: x", "Name <>", "a@b.example, c@d.example"])
    func refusesABadSender(sender: String) {
        #expect(throws: MailError.self) { try MailConfiguration.transport(for: "console", sender: sender) }
    }
}
