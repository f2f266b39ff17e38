import Foundation

/// Writes the Prometheus text exposition format, version 0.0.4.
package struct PrometheusText {
    /// The media type of the format.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    package private(set) var text = ""

    /// Starts a metric family with its `# HELP` and `# TYPE` lines.
    package mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample line: `name{label="value",…} value`.
    package mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.key)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    /// An integer sample.
    package mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Int) {
        sample(name, labels, String(value))
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format asks.
    package static func escapeLabel(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A help text with `\` and line feeds escaped (quotes stay as they are there).
    package static func escapeHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A float the way Prometheus parses it (`+Inf`, `-Inf`, `NaN`, or Swift's shortest form).
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return String(value)
    }
}
