/// A harness problem reported as the test's error, with the server's output when it helps.
struct TestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
