/// What can go wrong inside the `Curl` module. Each case carries a text fit for a log: never a
/// URL's credentials, which callers pass as options of their own.
public enum CurlError: Error, Sendable, CustomStringConvertible {
    /// libcurl could not be initialized or could not create a handle.
    case unavailable(String)
    /// libcurl refused an option, or ran out of memory building one.
    case refused(String)
    /// The transfer failed: `reason` is libcurl's text for its result code, `detail` the error
    /// buffer's more precise text (or `reason` when the buffer is empty).
    case transferFailed(reason: String, detail: String)

    /// The most precise text: the message, or the transfer's `detail`.
    public var description: String {
        switch self {
        case .unavailable(let message), .refused(let message): message
        case .transferFailed(_, let detail): detail
        }
    }
}
