/// The terminal client's version: in its `User-Agent` (so the sessions list names it) and in
/// `account --version`.
enum Version {
    static let number = "1.1.0"
}
