import CCurl
import Foundation

/// Everything one SMTP delivery needs, as plain values that can cross to a worker thread.
struct SMTPTransfer: Sendable {
    var server: String
    var from: String
    var to: String
    var body: [UInt8]
    var credentials: (username: String, password: String)?
    var timeout: TimeInterval
    var caFile: String?

    /// Runs the whole conversation (EHLO, STARTTLS if offered, AUTH, MAIL, RCPT, DATA, QUIT) on
    /// the calling thread, which it blocks.
    /// - Throws: ``MailError/deliveryFailed(_:)`` naming the server, libcurl's reason and the
    ///   last reply code; the password never appears in it.
    func run() throws {
        let curl = try CurlEasy()
        try curl.set(CURLOPT_URL, server)
        // Only mail: a crafted option can never turn this handle into a file or HTTP client.
        try curl.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        // STARTTLS when the server offers it, plain otherwise (smtps:// is TLS regardless).
        // TRY, as asked for plain smtp:// (a local relay often has no TLS); the cost is that an
        // active attacker can strip the STARTTLS offer. Certificates are verified whenever TLS is used.
        try curl.set(CURLOPT_USE_SSL, Int(CURLUSESSL_TRY.rawValue))
        if let caFile { try curl.set(CURLOPT_CAINFO, caFile) }
        let millis = max(1, Int(timeout * 1000))
        try curl.set(CURLOPT_CONNECTTIMEOUT_MS, millis)
        try curl.set(CURLOPT_TIMEOUT_MS, millis)
        if let credentials {
            try curl.set(CURLOPT_USERNAME, credentials.username)
            try curl.set(CURLOPT_PASSWORD, credentials.password)
        }
        try curl.set(CURLOPT_MAIL_FROM, "<\(from)>")
        try curl.set(CURLOPT_MAIL_RCPT, list: ["<\(to)>"])
        // SIZE on MAIL FROM lets a server refuse an oversized message before the upload.
        try curl.set(CURLOPT_INFILESIZE, body.count)
        let source = CurlUploadSource(body)
        try curl.setUpload(from: source)

        let failure = withExtendedLifetime(source) { curl.perform() }
        guard let failure else { return }
        let reply = curl.lastReplyCode
        var reason = "SMTP delivery to \(to) via \(server) failed: \(failure)"
        if reply > 0 { reason += " (last reply \(reply))" }
        if let credentials, !credentials.password.isEmpty {
            // libcurl never echoes the password, but nothing that reaches a log may hold it.
            reason = reason.replacingOccurrences(of: credentials.password, with: "***")
        }
        throw MailError.deliveryFailed(reason)
    }
}
