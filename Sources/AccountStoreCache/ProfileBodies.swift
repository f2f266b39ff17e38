import AccountStore
import Synchronization

/// The encoded reply of `GET /auth/me` for the accounts it answered lately, so the most frequent
/// reply is not written again for an account that has not changed.
///
/// Exact by construction: the reply is a function of the account's record alone (`encode`), and a
/// body is reused only for a record equal, field by field, to the one it was written from.
/// Whatever changed the account (nickname, MBTI type, address, verification, second factor, Apple
/// link, password, role, disabling) makes the record differ and the body be written afresh;
/// nothing has to tell this cache about a write. Bounded: a fixed table of slots chosen by the
/// account id, a newer account taking an older one's slot.
public final class ProfileBodies: Sendable {
    /// A record and its body; a class, so taking one out of the table under the lock is one
    /// retain, and the comparison runs after the lock is let go (a slot never changes, it is
    /// replaced).
    private final class Slot: Sendable {
        let record: UserRecord
        let body: [UInt8]

        init(record: UserRecord, body: [UInt8]) {
            self.record = record
            self.body = body
        }
    }

    private let slots: Mutex<[Slot?]>
    private let mask: Int
    private let encode: @Sendable (UserRecord) -> [UInt8]

    /// A table of `2^bits` slots (the default, 1,024, holds about 0.5 MiB of records and bodies)
    /// of what `encode` writes for a record.
    public init(bits: Int = 10, encode: @escaping @Sendable (UserRecord) -> [UInt8]) {
        slots = Mutex(Array(repeating: nil, count: 1 << bits))
        mask = (1 << bits) - 1
        self.encode = encode
    }

    /// The reply body for `record`: the one written before for an equal record, or a new one.
    public func body(for record: UserRecord) -> [UInt8] {
        let index = Self.slot(of: record, mask: mask)
        if let slot = slots.withLock({ $0[index] }), slot.record == record { return slot.body }
        let body = encode(record)
        slots.withLock { $0[index] = Slot(record: record, body: body) }
        return body
    }

    /// The slot of an account: the id's last bytes (random in every id this server makes).
    private static func slot(of record: UserRecord, mask: Int) -> Int {
        let id = record.id.uuid
        return (Int(id.14) << 8 | Int(id.15)) & mask
    }
}
