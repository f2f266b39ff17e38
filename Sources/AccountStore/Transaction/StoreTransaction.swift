/// The operations available inside one transaction, one protocol for each part of the data:
/// accounts, sessions, codes, settings and keys, throttles, the outbox, pending sign-ups, the
/// second factor, passkeys, operators, events, Apple identities. Every method throws
/// ``StoreError``.
///
/// A write that changes a row a cache may hold (an account, a session) names it before its
/// statement runs (``AnnouncesChanges``), so a cache in front of the store learns of every write
/// without wrapping the transaction.
public protocol StoreTransaction:
    UsersTransaction, SessionsTransaction, CodesTransaction, SettingsTransaction, ThrottleTransaction, OutboxTransaction,
    PendingSignUpsTransaction, SecondFactorTransaction, PasskeysTransaction, OperatorsTransaction, EventsTransaction,
    AppleIdentitiesTransaction, AnnouncesChanges
{}
