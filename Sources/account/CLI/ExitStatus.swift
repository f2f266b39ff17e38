/// How `account` exits.
enum ExitStatus: Int32 {
    /// Done.
    case success = 0
    /// The server refused, or nobody is signed in.
    case refused = 1
    /// The command line was wrong, or a needed value was missing and could not be asked for.
    case usage = 2
    /// The server could not be reached.
    case unreachable = 3
}
