import AccountAPI

/// A screen model whose requests run one at a time: ``run(_:)`` sets `isWorking` while one is on
/// its way, clears the screen's message first, and shows a refusal through `apply(_:)`.
@MainActor protocol RequestRunning: AnyObject {
    /// A request is on its way.
    var isWorking: Bool { get set }
    /// A message about the whole screen.
    var message: String? { get set }
    /// Shows a refusal on the field it is about, or on the screen.
    func apply(_ error: AccountError)
}

extension RequestRunning {
    /// Runs `body` with `isWorking` set, and shows its refusal.
    func run(_ body: () async throws -> Void) async {
        isWorking = true
        message = nil
        defer { isWorking = false }
        do {
            try await body()
        } catch {
            apply(AccountError(wrapping: error))
        }
    }
}
