/// The operations available inside one transaction, one protocol for each part of the data:
/// accounts, sessions, codes, settings and keys, throttles, the outbox, pending sign-ups, the
/// second factor, passkeys, operators, events, Apple identities. Every method throws
/// ``StoreError``.
public protocol StoreTransaction:
    UsersTransaction, SessionsTransaction, CodesTransaction, SettingsTransaction, ThrottleTransaction, OutboxTransaction,
    PendingSignUpsTransaction, SecondFactorTransaction, PasskeysTransaction, OperatorsTransaction, EventsTransaction,
    AppleIdentitiesTransaction
{}
