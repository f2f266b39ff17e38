import Foundation

/// Where mail goes, as chosen by the `--mail` option (or `ACCOUNT_MAIL`).
///
/// SMTP delivery will arrive as another case together with its transport.
public enum MailDestination: Equatable, Sendable {
    /// Print to standard output (`console`).
    case console
    /// Save `.eml` files in this folder (`file:///abs/dir` or `file:relative/dir`).
    case directory(URL)
}
