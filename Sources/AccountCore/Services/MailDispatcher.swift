import AccountAPI
import AccountStore
import Foundation
import Mailer

/// Delivers outbox messages through the configured transport, retrying with back-off (and the
/// rows that are not mail, such as an Apple grant to revoke, through their ``OutboxDelivery``).
///
/// A message leaves the outbox only after the transport accepted it, so a crash before that
/// sends it on the next start. It is claimed before sending so that two senders (threads or
/// servers) never send it twice while both are alive.
///
/// A transport too busy to take a message (``MailError/busy(_:)``: the SMTP transport's bounded
/// queue is full) tried nothing: the message stays due with its attempts unchanged, and the round
/// ends, leaving the rest for the next one. Routes never see a transport error; what they
/// acknowledged is already in the outbox.
///
/// A message's subject and body are opened with the server's ``SecretSeal`` just before it is
/// handed to the transport (they are sealed in the database when the server has a key file). One
/// that does not open is not sent: it counts as a failed try, backs off like one and is logged
/// (`mail_unopenable`, with its id and never its text), and the round goes on with the others; a
/// server that can open it (one of the same database still running without the key, or with it)
/// sends it on its own rounds.
package actor MailDispatcher {
    private let store: any AccountStore
    private let transport: any MailTransport
    private let clock: ServerClock
    private let seal: SecretSeal
    /// How rows that are not mail are delivered, by kind.
    private let deliveries: [OutboxKind: any OutboxDelivery]
    private var wakeUp: AsyncStream<Void>.Continuation?
    private var task: Task<Void, Never>?
    private var currentRound: Task<Int, Never>?

    package init(
        store: any AccountStore, transport: any MailTransport, clock: ServerClock, seal: SecretSeal,
        deliveries: [OutboxKind: any OutboxDelivery] = [:]
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.seal = seal
        self.deliveries = deliveries
    }

    /// Starts the delivery loop: it runs as soon as a write that queued mail commits (the store's
    /// hook) and every `interval` seconds.
    package func start(interval: Duration = .seconds(5)) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeUp = continuation
        store.whenMailQueued { continuation.yield() }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield()
            }
        }
        task = Task {
            continuation.yield()
            for await _ in stream {
                await self.deliverDue()
            }
            ticker.cancel()
        }
    }


    /// Stops the loop after a last delivery round.
    package func stop() async {
        wakeUp?.finish()
        await task?.value
        task = nil
        await deliverDue()
    }

    /// Sends every due message once; returns how many were delivered.
    ///
    /// Rounds never overlap: a caller that arrives during one waits for it and then runs its own,
    /// so when this returns, everything due at the call has been tried.
    @discardableResult
    package func deliverDue() async -> Int {
        let previous = currentRound
        let round = Task {
            _ = await previous?.value
            return await self.deliveryRound()
        }
        currentRound = round
        return await round.value
    }

    private func deliveryRound() async -> Int {
        let now = clock.now()
        guard let due = try? await store.read({ try $0.dueMail(now: now, limit: 50) }) else { return 0 }
        var delivered = 0
        for message in due {
            let claimed = (try? await store.write { tx in
                // Long enough for one delivery; short, so a crash mid-send delays the mail little.
                try tx.claimMail(id: message.id, now: now, until: now.addingTimeInterval(15))
            }) ?? false
            guard claimed else { continue }
            do {
                if message.kind == .mail {
                    try await transport.send(seal.mail(message))
                } else if let delivery = deliveries[message.kind] {
                    try await delivery.deliver(message)
                } else {
                    Log.event("outbox_skipped", ["kind": message.kind.rawValue])
                }
                try? await store.write { try $0.deleteMail(id: message.id) }
                delivered += 1
            } catch MailError.busy {
                // Not an attempt: due again at once, for the next round.
                try? await store.write { tx in
                    try tx.rescheduleMail(id: message.id, attempts: message.attempts, nextAttemptAt: now)
                }
                Log.event("mail_deferred", ["reason": "transport busy"])
                break
            } catch {
                let attempts = message.attempts + 1
                let delay = min(3600, 5 * pow(2, Double(min(attempts, 12))))
                try? await store.write { tx in
                    try tx.rescheduleMail(id: message.id, attempts: attempts, nextAttemptAt: now.addingTimeInterval(delay))
                }
                if message.kind == .mail, error is SecretsError {
                    Log.event("mail_unopenable", ["id": message.id.lowercasedText, "attempts": String(attempts), "reason": unopenableReason(message)])
                } else if message.kind == .mail {
                    Log.event("mail_delivery_failed", ["attempts": String(attempts)])
                } else {
                    Log.event("outbox_delivery_failed", ["kind": message.kind.rawValue, "attempts": String(attempts), "reason": String(describing: error)])
                }
            }
        }
        return delivered
    }

    /// Why `message`'s text did not open, for the log: a fixed phrase, never the text.
    private func unopenableReason(_ message: OutboxMessage) -> String {
        if seal.key == nil { return "sealed, and this server has no secret key file" }
        if !SecretSeal.isSealed(text: message.subject) || !SecretSeal.isSealed(text: message.body) {
            return "in clear, and this server seals mail with its secret key file"
        }
        return "does not open with the secret key: sealed with another key, altered or moved from another row"
    }
}
