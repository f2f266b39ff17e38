import Foundation
import QRCode
import TestSupport
import Testing

/// The terminal client's QR codes: the matrix read out of libqrencode is the one its own
/// `qrencode` tool draws, it has the structure every reader looks for, the terminal drawing keeps
/// every module, and what a terminal shows (cells twice as tall as wide) is read back by a QR
/// code reader (ZBar's `zbarimg`).
@Suite struct QRCodeTests {
    static let uri =
        "otpauth://totp/MBTI%20Playground:%EB%AF%BC%EC%88%98?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=MBTI%20Playground&algorithm=SHA1&digits=6&period=30"

    @Test(arguments: ["HELLO", "0123456789", uri, "민수의 계정 👋"])
    func theMatrixIsTheOneQrencodeDraws(_ text: String) async throws {
        let code = try QRCode(encoding: text, errorCorrection: .medium)
        let drawn = try await Program.run("qrencode", ["-t", "ASCII", "-l", "M", "-m", "4", text])
        try #require(drawn.status == 0, "qrencode: \(drawn.stderr)")
        #expect(drawn.stdout == code.asciiText(quietZone: 4) + "\n")
    }

    @Test func aShortTextIsVersionOneWithItsFinderAndTimingPatterns() throws {
        let code = try QRCode(encoding: "HELLO")
        #expect(code.version == 1 && code.width == 21 && code.modules.count == 21 * 21)
        // The three finder patterns: a dark 7×7 ring, a light ring, a dark 3×3 centre, and the
        // light separator around them.
        for (left, top) in [(0, 0), (14, 0), (0, 14)] {
            for y in -1...7 {
                for x in -1...7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    let dark = ring == 3 || ring <= 1
                    let (column, row) = (left + x, top + y)
                    guard (0..<21).contains(column), (0..<21).contains(row) else { continue }
                    #expect(code[column, row] == (dark && ring <= 3), "finder at \(left),\(top): module \(x),\(y)")
                }
            }
        }
        // The timing patterns between them alternate, dark first.
        for index in 8...12 {
            #expect(code[index, 6] == (index % 2 == 0))
            #expect(code[6, index] == (index % 2 == 0))
        }
        #expect(!code[-1, 0] && !code[21, 21], "outside is the quiet zone")
    }

    @Test func theURIOfAnEnrolmentFitsATerminal() throws {
        let code = try QRCode(encoding: Self.uri)
        #expect(code.width == 17 + 4 * code.version)
        // Quiet zone included, it stays inside 80 columns.
        #expect(code.width + 8 <= 80, "version \(code.version)")
    }

    @Test func halfBlocksKeepEveryModule() throws {
        let code = try QRCode(encoding: Self.uri)
        for colors in [true, false] {
            let text = code.terminalText(quietZone: 4, colors: colors)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                colors ? String(line.dropFirst("\u{1B}[30;47m".count).dropLast("\u{1B}[0m".count)) : String(line)
            }
            let side = code.width + 8
            #expect(lines.count == (side + 1) / 2)
            for (index, line) in lines.enumerated() {
                let cells = Array(line)
                try #require(cells.count == side, "line \(index) is \(cells.count) wide")
                for x in 0..<side {
                    let (top, bottom) = (2 * index - 4, 2 * index - 3)
                    // The glyph's upper half is foreground when the top module is drawn, etc.
                    let drawnTop = cells[x] == "█" || cells[x] == "▀"
                    let drawnBottom = cells[x] == "█" || cells[x] == "▄"
                    #expect(drawnTop == (code[x - 4, top] == colors), "line \(index), column \(x), top")
                    if bottom < code.width + 4 {
                        #expect(drawnBottom == (code[x - 4, bottom] == colors), "line \(index), column \(x), bottom")
                    }
                }
            }
        }
    }

    /// The image a terminal shows for `text`: each cell `scale` pixels wide and twice as tall,
    /// its upper and lower halves drawn as the glyph says, in the glyph's colour on the
    /// background's; as a binary PGM (netpbm) file.
    static func screenshot(of text: String, foregroundIsDark: Bool, scale: Int = 4) -> Data {
        let escapes = /\u{1B}\[[0-9;]*m/
        let lines = text.split(separator: "\n").map { Array($0.replacing(escapes, with: "")) }
        let width = (lines.map(\.count).max() ?? 0) * scale
        let (ink, paper): (UInt8, UInt8) = foregroundIsDark ? (0, 255) : (255, 0)
        var pixels: [UInt8] = []
        for line in lines {
            for half in 0..<2 {
                var row: [UInt8] = []
                for cell in line {
                    let drawn = cell == "█" || (half == 0 && cell == "▀") || (half == 1 && cell == "▄")
                    row += Array(repeating: drawn ? ink : paper, count: scale)
                }
                row += Array(repeating: paper, count: width - row.count)
                for _ in 0..<scale { pixels += row }
            }
        }
        return Data("P5 \(width) \(lines.count * 2 * scale) 255\n".utf8) + Data(pixels)
    }

    @Test(arguments: [true, false])
    func whatTheTerminalShowsIsReadBack(colors: Bool) async throws {
        let code = try QRCode(encoding: Self.uri)
        // With colors: black glyphs on white. Without: light glyphs on a dark terminal's black,
        // which is the code the right way round (a light terminal shows it inverted).
        let image = Self.screenshot(of: code.terminalText(colors: colors), foregroundIsDark: colors)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pgm")
        try image.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let read = try await Program.run("zbarimg", ["-q", "--raw", file.path])
        #expect(read.status == 0, "zbarimg found no code: \(read.stderr)")
        #expect(read.stdout == Self.uri + "\n")
    }

    @Test func aTextTooLongForAnyVersionIsRefused() {
        #expect(throws: QRCode.Failure.tooLong) { try QRCode(encoding: String(repeating: "x", count: 4000), errorCorrection: .high) }
    }
}
