import AccountAPI
import AccountKit
import Foundation

/// Getting values: from an option, else from a prompt when prompting is allowed, else a usage
/// error. Answers are checked with the shared rules as they come, and asked again when they fail.
extension Context {
    /// `--option`'s value, or the answer to `prompt`; non-empty, not checked.
    func value(_ option: String, prompt: String) throws(UsageError) -> String {
        try checkedValue(option, field: option, prompt: prompt) {
            $0.isEmpty ? FieldError(code: .required, message: say("Enter a value.", "값을 입력해 주세요.")) : nil
        }
    }

    /// `--option`'s value or the answer to `prompt`, passed through `check` (which says what is
    /// wrong, or `nil`). A bad option is said and asked for again when prompting is allowed, else
    /// refused. With `askAgain` the option is passed over (the server refused it).
    func checkedValue(
        _ option: String, field: String, prompt: String, askAgain: Bool = false, check: (String) -> FieldError?
    ) throws(UsageError) -> String {
        if !askAgain, let given = invocation.value(option) {
            guard let problem = check(given) else { return given }
            guard mayPrompt else { throw UsageError(refusing: field, problem, language) }
            console.err(problem.message)
        }
        guard mayPrompt else { throw missing(option) }
        while true {
            guard let answer = console.ask(prompt) else { throw missing(option, endOfInput: true) }
            let trimmed = answer.trimmingCharacters(in: .whitespaces)
            guard let problem = check(trimmed) else { return trimmed }
            console.err(problem.message)
        }
    }

    /// A password: a line of standard input with `--password-stdin`, else asked without echo until
    /// one passes `check` (which says what is wrong, or `nil`); with `repeatPrompt`, asked twice
    /// until both agree.
    func password(
        prompt: String, repeatPrompt: String? = nil, field: String = "password", check: (String) -> FieldError? = { _ in nil }
    ) throws(UsageError) -> String {
        if invocation.has("password-stdin") {
            guard let line = console.readLine(), !line.isEmpty else {
                throw UsageError(say("no password on standard input", "표준 입력에 비밀번호가 없어요"))
            }
            if let problem = check(line) { throw UsageError(refusing: field, problem, language) }
            return line
        }
        guard mayPrompt else { throw UsageError(say("missing password: use --password-stdin", "비밀번호가 없어요: --password-stdin을 쓰세요")) }
        while true {
            guard let first = console.askSecret(prompt) else { throw endOfInput(FieldLabel.name(field, language)) }
            guard !first.isEmpty else { continue }
            if let problem = check(first) {
                console.err(problem.message)
                continue
            }
            guard let repeatPrompt else { return first }
            guard let second = console.askSecret(repeatPrompt) else { throw endOfInput(FieldLabel.name(field, language)) }
            if first == second { return first }
            console.err(say("The passwords do not match. Try again.", "비밀번호가 서로 달라요. 다시 입력해 주세요."))
        }
    }

    /// `--mbti`, or a choice from the numbered list of the types (a number or the type itself).
    func mbti(_ choices: [MBTI] = MBTI.allCases) throws(UsageError) -> MBTI {
        if let given = invocation.value("mbti") {
            if let type = MBTI(parsing: given), choices.contains(type) { return type }
            let message = say("'\(given)' is not one of the 16 MBTI types", "\(KoreanParticle.topic.attached(to: "'\(given)'")) 16가지 MBTI 유형이 아니에요")
            guard mayPrompt else { throw UsageError(message) }
            console.err(message)
        }
        guard mayPrompt else { throw missing("mbti") }
        console.err(say("MBTI type:", "MBTI 유형:"))
        for row in stride(from: 0, to: choices.count, by: 4) {
            let cells = (row..<min(row + 4, choices.count)).map { index in
                "\(String(index + 1).leftPadded(to: 2))) \(choices[index].rawValue)"
            }
            console.err("  " + cells.joined(separator: "   "))
        }
        while true {
            let prompt = say("Choose 1-\(choices.count) or type it: ", "번호(1-\(choices.count))나 유형을 입력하세요: ")
            guard let answer = console.ask(prompt) else { throw missing("mbti", endOfInput: true) }
            if let number = Int(answer.trimmingCharacters(in: .whitespaces)), choices.indices.contains(number - 1) {
                return choices[number - 1]
            }
            if let type = MBTI(parsing: answer), choices.contains(type) { return type }
            console.err(say("Not one of the \(choices.count) types.", "\(choices.count)가지 유형 중 하나를 골라 주세요."))
        }
    }

    /// The answer to `prompt`, or `nil` when prompting is not allowed, input ended, or it was left empty.
    func optionalAnswer(_ prompt: String) -> String? {
        guard mayPrompt, let answer = console.ask(prompt) else { return nil }
        let trimmed = answer.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Asks a yes-or-no question; `defaultYes` when the answer is empty; no when asking is not allowed.
    func confirm(_ question: String, defaultYes: Bool) -> Bool {
        guard mayPrompt, let answer = console.ask(question + (defaultYes ? " [Y/n] " : " [y/N] ")) else { return false }
        let word = answer.trimmingCharacters(in: .whitespaces).lowercased()
        if word.isEmpty { return defaultYes }
        return ["y", "yes", "ㅇ", "예", "네", "응"].contains(word)
    }

    /// The first of `codes` for `field` with its message, or `nil` when there is none.
    func problem(_ codes: [FieldErrorCode], field: String, _ rules: FormRules) -> FieldError? {
        codes.first.map { FieldError(code: $0, message: rules.message($0, field: field, language)) }
    }

    func missing(_ option: String, endOfInput: Bool = false) -> UsageError {
        endOfInput
            ? UsageError(say("missing --\(option) (end of input)", "\(KoreanParticle.subject.attached(to: "--\(option)")) 없어요 (입력이 끝났어요)"))
            : UsageError(say("missing --\(option)", "\(KoreanParticle.subject.attached(to: "--\(option)")) 없어요"))
    }

    private func endOfInput(_ what: String) -> UsageError {
        UsageError(say("missing \(what) (end of input)", "\(KoreanParticle.subject.attached(to: what)) 없어요 (입력이 끝났어요)"))
    }
}
