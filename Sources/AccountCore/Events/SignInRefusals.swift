/// A sign-in's refusal recorded where the sign-in decided it, with the account and the fields of
/// its log line (``DomainEvents/refuse(_:_:)``): ``DomainEvents/signIn(_:_:_:)`` throws `error`
/// and records nothing more.
struct RecordedRefusal: Error {
    let error: APIError
}

extension DomainEvents {
    /// Runs the sign-in `body` of `route`, recording the refusal it throws (``LoginRefusal``) as
    /// `loginRefused`, unless the sign-in recorded it itself.
    func signIn<T>(_ route: SignInRoute, _ caller: Caller, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let recorded as RecordedRefusal {
            throw recorded.error
        } catch let error as APIError {
            if let refusal = LoginRefusal(error.code) { record(caller.event(.loginRefused(route, refusal))) }
            throw error
        }
    }

    /// Records `event`, a `loginRefused` the sign-in decided, and gives back `error` to throw for it.
    func refuse(_ error: APIError, _ event: DomainEvent) -> RecordedRefusal {
        record(event)
        return RecordedRefusal(error: error)
    }
}
