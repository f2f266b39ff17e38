import AccountAPI
import AccountStore
import Foundation
import Mailer

/// Mail waiting in the outbox, sealed like the database's other secrets.
///
/// A waiting message holds what it is for: a sign-up, verification or password-reset code, a
/// nickname. With `--secret-key-file`, ``Outbox`` writes its subject and body sealed for that row
/// and column (`outbox-subject:<id>`, `outbox-body:<id>`), and ``MailDispatcher`` opens them at
/// sending time, so a copy of the database alone (with SMTP down, say) holds no code in clear;
/// the recipient stays in clear, to be sent to. Without a key file both are stored as they are.
///
/// A message whose text does not open is never sent: sealed with another key, altered or moved
/// from another row; or sealed while this server has no key, or in clear while it has one (a
/// server started before the key was adopted, or after it was removed, still running beside it).
/// Rows of other kinds (an Apple grant to revoke) are sealed by their own delivery and are left
/// alone here.
extension SecretSeal {
    /// What the subject of the outbox message `id` is sealed for: that row's subject only.
    package static func context(mailSubject id: UUID) -> String { "outbox-subject:" + id.lowercasedText }
    /// What the body of the outbox message `id` is sealed for: that row's body only.
    package static func context(mailBody id: UUID) -> String { "outbox-body:" + id.lowercasedText }

    /// How a sealed text begins; the base64 of the box follows.
    package static let sealedTextPrefix = "sbx1:"

    /// Whether `stored` is a sealed text (whatever key sealed it).
    package static func isSealed(text stored: String) -> Bool { stored.hasPrefix(sealedTextPrefix) }

    // MARK: One text

    /// `text` as a text column stores it: `sbx1:` and the base64 of ``seal(_:context:)``'s box,
    /// or as it is without a key.
    package func seal(text: String, context: String) -> String {
        guard key != nil else { return text }
        let sealed = seal(Array(text.utf8), context: context)
        return Self.sealedTextPrefix + Data(sealed.dropFirst(Self.sealedPrefix.count)).base64EncodedString()
    }

    /// The text `stored` holds for `context`.
    /// - Throws: ``SecretsError/cannotOpen(_:)`` when it does not open: sealed with another key,
    ///   altered or moved from another row; sealed, and this seal has no key; or in clear, and it has one.
    func open(text stored: String, context: String) throws -> String {
        guard Self.isSealed(text: stored) else {
            guard key == nil else { throw SecretsError.cannotOpen(context) }
            return stored
        }
        guard key != nil, let box = Data(base64Encoded: String(stored.dropFirst(Self.sealedTextPrefix.count))),
            let text = String(bytes: try open(Self.sealedPrefix + Array(box), context: context), encoding: .utf8)
        else { throw SecretsError.cannotOpen(context) }
        return text
    }

    // MARK: One message

    /// `message` as the outbox keeps it: subject and body sealed for its row.
    package func sealed(mail message: OutboxMessage) -> OutboxMessage {
        var stored = message
        stored.subject = seal(text: message.subject, context: Self.context(mailSubject: message.id))
        stored.body = seal(text: message.body, context: Self.context(mailBody: message.id))
        return stored
    }

    /// The mail an outbox row sends, its subject and body opened.
    /// - Throws: ``SecretsError/cannotOpen(_:)`` as ``open(text:context:)``.
    package func mail(_ stored: OutboxMessage) throws -> MailMessage {
        MailMessage(
            to: stored.recipient, subject: try open(text: stored.subject, context: Self.context(mailSubject: stored.id)),
            text: try open(text: stored.body, context: Self.context(mailBody: stored.id)))
    }

    // MARK: The whole outbox

    /// Seals every waiting message still in clear (when a clear database adopts the key, in its
    /// transaction), so mail queued before keeps its place and goes out sealed; returns how many.
    package func sealWaitingMail(in tx: any StoreTransaction) throws -> Int {
        var count = 0
        for message in try tx.waitingMail() where !Self.isSealed(text: message.subject) && !Self.isSealed(text: message.body) {
            let stored = sealed(mail: message)
            try tx.replaceMailText(id: message.id, subject: stored.subject, body: stored.body)
            count += 1
        }
        return count
    }

    /// Puts every sealed waiting message back in clear (`keys unseal`), so the servers started
    /// without the key send it; returns how many, and how many did not open and were removed
    /// (no server could ever send them: every one runs without the key from now on).
    package func unsealWaitingMail(in tx: any StoreTransaction) throws -> (opened: Int, removed: Int) {
        var (unsealed, removed) = (0, 0)
        for message in try tx.waitingMail() where Self.isSealed(text: message.subject) || Self.isSealed(text: message.body) {
            if let opened = try? mail(message) {
                try tx.replaceMailText(id: message.id, subject: opened.subject, body: opened.text)
                unsealed += 1
            } else {
                try tx.deleteMail(id: message.id)
                removed += 1
            }
        }
        return (unsealed, removed)
    }
}
