import Foundation

/// Where mail goes, as chosen by the `--mail` option (or `ACCOUNT_MAIL`).
public enum MailDestination: Equatable, Sendable {
    /// Print to standard output (`console`).
    case console
    /// Save `.eml` files in this folder (`file:///abs/dir` or `file:relative/dir`).
    case directory(URL)
    /// Hand each message to an SMTP server: `smtp://[user[:password]@]host[:port]` (STARTTLS
    /// when offered) or `smtps://…` (TLS from the start). The URL may hold a password: never log it.
    case smtp(URL)
}
