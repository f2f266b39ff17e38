extension Reply {
    /// What a client can compare between two replies, as one line: status, `Retry-After`,
    /// `WWW-Authenticate`, the whole body of a problem (its texts are fixed) or the field names of
    /// another body, and the shape of a sign-up's `signup_token` (its length and alphabet; its
    /// value is new for every sign-up).
    ///
    /// With `exactWaits` false only whether `Retry-After` came counts, not its value: a server
    /// on the real time may cross a second between two requests (``TestClock/standsStill``).
    public func observable(exactWaits: Bool = true) -> String {
        let shape = code != nil ? text : json.keys.sorted().joined(separator: ",")
        let token = (self["signup_token"] as? String).map { token in
            "token \(token.count) \(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })"
        } ?? "-"
        let wait = exactWaits ? header("Retry-After") ?? "-" : (header("Retry-After") == nil ? "-" : "wait")
        return "\(status) \(wait) \(header("WWW-Authenticate") ?? "-") \(shape) \(token)"
    }
}
