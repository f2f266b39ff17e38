import Curl
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
        let curl: CurlEasy
        do {
            curl = try configuredHandle()
        } catch {
            throw MailError.deliveryFailed(error.description)
        }
        do {
            try curl.perform()
        } catch {
            let reply = curl.responseCode
            var reason = "SMTP delivery to \(to) via \(server) failed: \(error.description)"
            if reply > 0 { reason += " (last reply \(reply))" }
            if let credentials, !credentials.password.isEmpty {
                // libcurl never echoes the password, but nothing that reaches a log may hold it.
                reason = reason.replacingOccurrences(of: credentials.password, with: "***")
            }
            throw MailError.deliveryFailed(reason)
        }
    }

    /// A handle set up for this delivery, not yet started.
    private func configuredHandle() throws(CurlError) -> CurlEasy {
        let curl = try CurlEasy()
        try curl.set(.url, server)
        // Only mail: a crafted option can never turn this handle into a file or HTTP client.
        try curl.set(.protocols, "smtp,smtps")
        // STARTTLS when the server offers it, plain otherwise (smtps:// is TLS regardless).
        // TRY, as asked for plain smtp:// (a local relay often has no TLS); the cost is that an
        // active attacker can strip the STARTTLS offer. Certificates are verified whenever TLS is used.
        try curl.useTLS(.whenOffered)
        if let caFile { try curl.set(.caFile, caFile) }
        try curl.setTimeout(timeout)
        if let credentials {
            try curl.set(.username, credentials.username)
            try curl.set(.password, credentials.password)
        }
        try curl.set(.mailFrom, "<\(from)>")
        try curl.set(.mailRecipients, ["<\(to)>"])
        // SIZE on MAIL FROM lets a server refuse an oversized message before the upload.
        try curl.upload(body)
        return curl
    }
}
