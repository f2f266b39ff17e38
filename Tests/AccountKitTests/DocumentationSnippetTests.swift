import Foundation
import TestSupport
import Testing

/// The Swift in `docs/USING-ACCOUNTKIT.md` and README's tour compiles against the SDK as
/// built (type-checked by `swiftc` in Swift 6 mode, as an app would build it), and its `for await`
/// loops run in tasks of their own, so the lines after them run.
///
/// The guide's snippets are one narrative (later ones use the `client` and `session` of earlier
/// ones), so they are checked as one function body; each README snippet stands alone. Snippets of
/// a manifest (`PackageDescription`) or of SwiftUI (not on Linux; the iOS type-check has the
/// screens) are left out.
@Suite struct DocumentationSnippetTests {
    /// The ```swift blocks of `file`, without those this check leaves out.
    static func snippets(in file: String) throws -> [String] {
        let text = try String(contentsOf: PackageFiles.url(file), encoding: .utf8)
        return text.matches(of: /```swift\n((?s).*?)```/).map { String($0.output.1) }.filter { block in
            !block.contains("PackageDescription") && !block.contains("SwiftUI") && !block.contains("import AccountUI")
        }
    }

    /// A block's statements without its `import` lines (the file imports once).
    static func body(_ block: String) -> String {
        block.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
    }

    /// `source` as one file, type-checked by `swiftc` in Swift 6 mode against the SDK as built.
    static func typecheck(_ source: String) async throws -> ProgramResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Snippets.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let modules = Binaries.buildFolder.appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("AccountKit.swiftmodule").path), "build first")
        return try await Program.run("swiftc", ["-typecheck", "-swift-version", "6", "-I", modules.path, file.path], timeout: .seconds(600))
    }

    /// A block's `import` lines.
    static func imports(_ block: String) -> [String] {
        block.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init)
    }

    /// The guide is one narrative that starts with its first snippet, so the narrative compiles
    /// with exactly the imports that snippet writes (nothing added here): a reader who copies it
    /// gets a file that builds. A later snippet may repeat them but not need more.
    @Test func theGuideAndReadmeSnippetsCompileAgainstTheSDK() async throws {
        let guide = try Self.snippets(in: "docs/USING-ACCOUNTKIT.md")
        let readme = try Self.snippets(in: "README.md").filter { $0.contains("AccountKit") }
        #expect(guide.count >= 6, "the guide's snippets were found")
        #expect(readme.count >= 1, "README's SDK snippet (the tour's Swift) was found")
        let first = Self.imports(try #require(guide.first))
        #expect(first.contains("import AccountKit"))
        for block in guide.dropFirst() {
            #expect(Set(Self.imports(block)).isSubset(of: first), "a snippet needs more than the first one imports:\n\(block)")
        }

        var source = first.joined(separator: "\n") + "\n\n"
        source += "func guide() async throws {\n" + guide.map(Self.body).joined(separator: "\n") + "}\n\n"
        let (status, output, errors) = try await Self.typecheck(source)
        #expect(status == 0, "the guide's Swift does not compile with its own imports:\n\(output)\(errors)\n\(source)")

        var readmeSource = "import AccountKit\nimport Foundation\n\n"
        for (index, block) in readme.enumerated() { readmeSource += "func readme\(index)() async throws {\n" + Self.body(block) + "}\n\n" }
        let (readmeStatus, readmeOutput, readmeErrors) = try await Self.typecheck(readmeSource)
        #expect(readmeStatus == 0, "README's Swift does not compile:\n\(readmeOutput)\(readmeErrors)\n\(readmeSource)")
    }

    /// The guide's section on app extensions, compiled on its own with only the imports its
    /// snippets write (none added here), so a reader who copies them gets code that builds.
    @Test func theExtensionSectionCompilesWithItsOwnImports() async throws {
        let text = try String(contentsOf: PackageFiles.url("docs/USING-ACCOUNTKIT.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## Sharing the session with app extensions\n"))
        let rest = text[start.upperBound...]
        let section = String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
        let blocks = section.matches(of: /```swift\n((?s).*?)```/).map { String($0.output.1) }
        #expect(blocks.count == 2, "the section's snippets were found")
        let lines = blocks.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        let imports = lines.filter { $0.hasPrefix("import ") }.joined(separator: "\n")
        #expect(imports.contains("import AccountKit") && imports.contains("import Foundation"))
        let source = imports + "\n\nfunc sharing() async throws {\n" + lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n") + "}\n"
        let (status, output, errors) = try await Self.typecheck(source)
        #expect(status == 0, "the section's Swift does not compile:\n\(output)\(errors)\n\(source)")
    }

    @Test func forAwaitLoopsRunBesideTheRest() throws {
        for file in ["docs/USING-ACCOUNTKIT.md", "README.md"] {
            for block in try Self.snippets(in: file) {
                for line in block.split(separator: "\n") where line.contains("for await") {
                    let index = block.range(of: String(line))!.lowerBound
                    let before = block[..<index].split(separator: "\n").last.map(String.init) ?? ""
                    #expect(line.contains("Task {") || before.contains("Task {"), "\(file): a loop that blocks what follows: \(line)")
                }
            }
        }
    }
}
