/// The HTML alternative of a plain-text message: the same words, escaped, in paragraphs.
///
/// A run of six or more digits (a code) is shown digit by digit in boxes, the way code mails
/// usually look; it also keeps the code the only six-digit number anywhere in the message, so the
/// plain-text part stays the one place a program finds it.
enum MailHTML {
    static func render(_ text: String, language: String = "en") -> String {
        let paragraphs = text.replacingOccurrences(of: "\r\n", with: "\n")
            .components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
        let body = paragraphs.map { paragraph -> String in
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { boxDigits(escape(String($0))) }
            return "<p>" + lines.joined(separator: "<br>\n") + "</p>"
        }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="\(language)"><head><meta charset="utf-8"></head>
            <body style="font-family: -apple-system, 'Apple SD Gothic Neo', sans-serif; line-height: 1.5">
            \(body)
            </body></html>

            """
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Puts each digit of a run of six or more in a box of its own.
    static func boxDigits(_ text: String) -> String {
        var result = ""
        var run = ""
        func flush() {
            if run.count >= 6 {
                result += "<strong style=\"font-size: 1.6em; letter-spacing: 0.2em\">"
                    + run.map { "<span>\($0)</span>" }.joined() + "</strong>"
            } else {
                result += run
            }
            run = ""
        }
        for character in text {
            if character.isASCII && character.isNumber { run.append(character) } else { flush(); result.append(character) }
        }
        flush()
        return result
    }
}
