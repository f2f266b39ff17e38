/// Why the server could not start.
public enum HTTPServerError: Error {
    /// Binding or listening failed (for example: address in use, bad host literal, already started).
    case cannotListen(String)
}
