import CQREncode
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A QR code (ISO/IEC 18004) of a text, made by libqrencode: its matrix of dark and light
/// modules, and the matrix drawn for a terminal.
///
/// ```swift
/// let code = try QRCode(encoding: "otpauth://totp/…")
/// print(code.terminalText(colors: true))     // half blocks, dark on light, with the quiet zone
/// ```
public struct QRCode: Sendable, Equatable {
    /// How much of the code may be lost and still read (ISO/IEC 18004 levels).
    public enum ErrorCorrection: Sendable {
        /// About 7%: the smallest code.
        case low
        /// About 15%.
        case medium
        /// About 25%.
        case quartile
        /// About 30%.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Why a text has no QR code.
    public enum Failure: Error, Sendable, Equatable {
        /// Too long for the largest QR code (version 40) at this error correction.
        case tooLong
        /// Empty, or libqrencode failed otherwise (its `errno`).
        case failed(Int32)
    }

    /// The version (1…40): the code is `17 + 4 × version` modules a side.
    public let version: Int
    /// Modules a side.
    public let width: Int
    /// Row after row, `true` for a dark module; `width × width` of them.
    public let modules: [Bool]

    /// The smallest code of `text` (bytes of its UTF-8, letter case kept) at `errorCorrection`.
    /// - Throws: ``Failure``.
    public init(encoding text: String, errorCorrection: ErrorCorrection = .medium) throws(Failure) {
        guard !text.isEmpty else { throw .failed(0) }
        guard let code = QRcode_encodeString(text, 0, errorCorrection.level, QR_MODE_8, 1) else {
            let error = errno
            throw error == ERANGE ? .tooLong : .failed(error)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.version = Int(code.pointee.version)
        self.width = width
        // Each byte describes one module; its lowest bit is dark (libqrencode's other bits say
        // what the module is part of).
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        self.modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module in `column` `x` and `row` `y` is dark; outside the code (the quiet
    /// zone) every module is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
        return modules[y * width + x]
    }

    /// The code for a terminal, two rows of modules a line in Unicode half blocks (`▀ ▄ █`), with
    /// `quietZone` light modules around it (4, as the standard asks, lets cameras find it).
    ///
    /// With `colors`, ANSI escapes draw dark modules black on a white background whatever the
    /// terminal's theme. Without, dark modules are blanks and light ones blocks: right on a dark
    /// terminal (light text on black), which most are, and read by most phone cameras even when
    /// inverted.
    public func terminalText(quietZone: Int = 4, colors: Bool) -> String {
        let range = -quietZone..<(width + quietZone)
        var lines: [String] = []
        for y in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = colors ? "\u{1B}[30;47m" : ""
            for x in range {
                // The glyph draws the foreground: dark modules with colors, light ones without.
                let top = self[x, y] == colors
                let bottom = (y + 1 < range.upperBound ? self[x, y + 1] : false) == colors
                let glyph: String = switch (top, bottom) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
                line += glyph
            }
            if colors { line += "\u{1B}[0m" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The code as `qrencode -t ASCII` writes it: `##` for a dark module, two spaces for a light
    /// one, with `quietZone` light modules around, one line a row.
    public func asciiText(quietZone: Int = 4) -> String {
        let range = -quietZone..<(width + quietZone)
        return range.map { y in range.map { x in self[x, y] ? "##" : "  " }.joined() }.joined(separator: "\n")
    }
}
