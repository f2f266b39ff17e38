import Foundation
import AccountAPI

/// Getting values: from an option, else from a prompt when prompting is allowed, else a usage error.
extension Context {
    /// `--option`'s value, or the answer to `prompt`.
    func value(_ option: String, prompt: String) throws(UsageError) -> String {
        if let given = invocation.value(option) { return given }
        guard mayPrompt else { throw UsageError("missing --\(option)") }
        while true {
            guard let answer = console.ask(prompt) else { throw UsageError("missing --\(option) (end of input)") }
            let trimmed = answer.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return trimmed }
        }
    }

    /// A password: a line of standard input with `--password-stdin`, else asked without echo;
    /// with `confirm`, asked twice until both agree.
    func password(prompt: String, repeatPrompt: String? = nil) throws(UsageError) -> String {
        if invocation.has("password-stdin") {
            guard let line = console.readLine(), !line.isEmpty else { throw UsageError("no password on standard input") }
            return line
        }
        guard mayPrompt else { throw UsageError("missing password: use --password-stdin") }
        while true {
            guard let first = console.askSecret(prompt) else { throw UsageError("missing password (end of input)") }
            guard !first.isEmpty else { continue }
            guard let repeatPrompt else { return first }
            guard let second = console.askSecret(repeatPrompt) else { throw UsageError("missing password (end of input)") }
            if first == second { return first }
            console.err(say("The passwords do not match. Try again.", "비밀번호가 서로 달라요. 다시 입력해 주세요."))
        }
    }

    /// `--mbti`, or a choice from the numbered list of the 16 types (a number or the type itself).
    func mbti() throws(UsageError) -> MBTI {
        if let given = invocation.value("mbti") {
            guard let type = MBTI(parsing: given) else { throw UsageError("'\(given)' is not one of the 16 MBTI types") }
            return type
        }
        guard mayPrompt else { throw UsageError("missing --mbti") }
        console.err(say("MBTI type:", "MBTI 유형:"))
        for row in stride(from: 0, to: MBTI.allCases.count, by: 4) {
            let cells = (row..<row + 4).map { index in
                "\(String(index + 1).leftPadded(to: 2))) \(MBTI.allCases[index].rawValue)"
            }
            console.err("  " + cells.joined(separator: "   "))
        }
        while true {
            guard let answer = console.ask(say("Choose 1-16 or type it: ", "번호(1-16)나 유형을 입력하세요: ")) else {
                throw UsageError("missing --mbti (end of input)")
            }
            if let number = Int(answer.trimmingCharacters(in: .whitespaces)), (1...16).contains(number) {
                return MBTI.allCases[number - 1]
            }
            if let type = MBTI(parsing: answer) { return type }
            console.err(say("Not one of the 16 types.", "16가지 유형 중 하나를 골라 주세요."))
        }
    }

    /// The answer to `prompt`, or `nil` when prompting is not allowed, input ended, or it was left empty.
    func optionalAnswer(_ prompt: String) -> String? {
        guard mayPrompt, let answer = console.ask(prompt) else { return nil }
        let trimmed = answer.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}

