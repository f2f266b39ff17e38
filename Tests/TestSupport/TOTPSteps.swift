import AccountAPI
import Foundation
import Testing

extension TestClock {
    /// Moves a server binary's clock (``serverNow``) to one second into the next 30-second step;
    /// returns a time in that step, for ``TOTPGenerator``. Each authenticator code is computed
    /// just after the start of a fresh step, so the real time a slow machine spends between
    /// computing a code and sending it never crosses into another step.
    @discardableResult
    public func nextStep() -> Date { moveToNextStep(from: serverNow) }

    /// The same for an app in this process, which reads ``now`` (a clock that stands still).
    @discardableResult
    public func nextStepInProcess() -> Date { moveToNextStep(from: now) }

    /// ``nextStepInProcess()`` for a clock that stands still, else ``nextStep()``: the step of
    /// whichever server reads this clock.
    @discardableResult
    public func nextServerStep() -> Date { standsStill ? nextStepInProcess() : nextStep() }

    private func moveToNextStep(from date: Date) -> Date {
        let time = date.timeIntervalSince1970
        let start = ((time / 30).rounded(.down) + 1) * 30
        advance(start + 1 - time)
        return Date(timeIntervalSince1970: start + 1)
    }
}

/// The claims of an access token (not verified: the server did that).
public func accessClaims(_ token: String) throws -> [String: Any] {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
        let claims = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
    else { throw TestFailure("not a JWT: \(token)") }
    return claims
}

/// The `amr` claim of an access token.
public func amr(_ token: String) throws -> [String]? { try accessClaims(token)["amr"] as? [String] }
