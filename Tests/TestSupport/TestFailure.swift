/// A step of the test kit that did not go as a test needs it to (a server that did not start, a
/// reply that never came), with what was seen instead, for the failure message.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
