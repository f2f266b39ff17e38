import Foundation
import TestSupport
import Testing
@testable import Mailer

/// TLS: STARTTLS on `smtp://` when offered, TLS from the start on `smtps://`, certificates checked.
@Suite struct SmtpTLSTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"

    /// A self-signed certificate for 127.0.0.1 made with the openssl command, in a fresh folder.
    func selfSignedCertificate() async throws -> (folder: URL, certificate: String, key: String) {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let openssl = try await Program.run("openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        try #require(openssl.status == 0, "openssl could not make a certificate: \(openssl.stderr)")
        return (folder, certificate, key)
    }

    @Test func upgradesToTLSWhenTheServerOffersIt() async throws {
        let pem = try await selfSignedCertificate()
        defer { try? FileManager.default.removeItem(at: pem.folder) }
        let sink = try await SmtpSink(auth: "mbti:pw", starttls: (pem.certificate, pem.key))
        var transport = try SMTPMailTransport(url: sink.url(userInfo: "mbti:pw"), sender: sender)
        transport.trustedCAFile = pem.certificate

        try await transport.send(MailMessage(to: "a@b.example", subject: "tls", text: "over TLS"))

        let received = try sink.received()
        try #require(received.count == 1)
        #expect(received[0].envelope.tls)
        #expect(try ParsedMail(received[0].mail).body == "over TLS\r\n")
    }

    @Test func anUntrustedCertificateIsADeliveryFailure() async throws {
        let pem = try await selfSignedCertificate()
        defer { try? FileManager.default.removeItem(at: pem.folder) }
        let sink = try await SmtpSink(starttls: (pem.certificate, pem.key))
        let transport = try SMTPMailTransport(url: sink.url(), sender: sender)

        await #expect {
            try await transport.send(MailMessage(to: "a@b.example", subject: "tls", text: "x"))
        } throws: { error in
            guard case MailError.deliveryFailed(let reason) = error else { return false }
            return reason.lowercased().contains("certificate")
        }
        #expect(try sink.received().isEmpty)
    }

    @Test func smtpsSpeaksTLSFromTheStart() async throws {
        let pem = try await selfSignedCertificate()
        defer { try? FileManager.default.removeItem(at: pem.folder) }
        let sink = try await SmtpSink(auth: "mbti:pw", tls: (pem.certificate, pem.key))
        var transport = try SMTPMailTransport(
            url: URL(string: "smtps://mbti:pw@127.0.0.1:\(sink.port)")!, sender: sender)
        transport.trustedCAFile = pem.certificate

        try await transport.send(MailMessage(to: "a@b.example", subject: "smtps", text: "implicit TLS"))

        let received = try sink.received()
        try #require(received.count == 1)
        #expect(try ParsedMail(received[0].mail).body == "implicit TLS\r\n")
    }

    @Test func smtpsToAPlainServerFails() async throws {
        let sink = try await SmtpSink()
        let transport = try SMTPMailTransport(url: URL(string: "smtps://127.0.0.1:\(sink.port)")!, sender: sender,
                                              timeout: 5)

        await #expect(throws: MailError.self) {
            try await transport.send(MailMessage(to: "a@b.example", subject: "smtps", text: "x"))
        }
        #expect(try sink.received().isEmpty)
    }
}
