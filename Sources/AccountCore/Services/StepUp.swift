import AccountAPI
import AccountStore
import Foundation

extension SensitiveChange {
    /// The `via` of its log lines and security events.
    package var route: String {
        switch self {
        case .addPasskey: "passkey_register"
        case .removePasskey: "passkey_delete"
        case .linkApple: "apple_link"
        case .unlinkApple: "apple_unlink"
        case .enableSecondFactor: "mfa_enroll"
        case .disableSecondFactor: "mfa_disable"
        case .replaceRecoveryCodes: "mfa_recovery_codes"
        case .changePassword: "password_change"
        case .deleteAccount: "account_delete"
        }
    }
}

/// A step-up proof read from a request, its form checked: the account's first way in, and the
/// second factor when the change asks for it.
package struct StepUp: Sendable {
    package enum FirstProof: Sendable {
        case password(String)
        case passkey(PasskeyAssertionCredential)
        case apple(token: String, nonce: String)
    }

    package let change: SensitiveChange
    package let first: FirstProof
    package let secondFactor: SecondFactorProof?

    /// The proof `proof` gives for `change` to `user`, or `nil` with the field errors added to
    /// `errors`, by the rule of ``AccountAPI/StepUpRequirement`` (the one the SDK asks by): the
    /// strongest the account holds. An account that holds a passkey and no authenticator app
    /// proves with a passkey; otherwise the password (an account without one: its linked Apple
    /// ID), or a passkey assertion instead. The second factor is what the requirement says for
    /// the proof given. The password's field is `passwordField`.
    /// - Throws: `invalid_request` when both `code` and `recovery_code` are given.
    fileprivate static func parse(
        _ proof: StepUpProof, for change: SensitiveChange, user: UserRecord, holdsPasskey: Bool, passwordField: String,
        into errors: inout FieldErrors
    ) throws -> StepUp? {
        let requirement = StepUpRequirement(
            change: change, secondFactorOn: user.totpEnabled, hasPassword: user.hasPassword, appleLinked: user.appleLinked,
            holdsPasskey: holdsPasskey)
        let first = firstProof(proof, requirement, passwordField: passwordField, into: &errors)
        let factor: SecondFactorProof?
        // A proof missing its first part is told of its code too, as a password's would be.
        switch requirement.secondFactor(with: first?.identity ?? .password) {
        case .none: factor = nil
        case .codeOrRecoveryCode: factor = try SecondFactorProof.parse(code: proof.code, recoveryCode: proof.recoveryCode, into: &errors)
        case .authenticatorCode: factor = try SecondFactorProof.parse(code: proof.code, recoveryCode: nil, into: &errors)
        }
        guard errors.isEmpty, let first else { return nil }
        return StepUp(change: change, first: first, secondFactor: factor)
    }

    private static func firstProof(
        _ proof: StepUpProof, _ requirement: StepUpRequirement, passwordField: String, into errors: inout FieldErrors
    ) -> FirstProof? {
        if requirement.passkeyOnly {
            guard let assertion = proof.passkeyAssertion else {
                errors.add(.required, to: StepUpProof.Member.passkeyAssertion.rawValue)
                return nil
            }
            return .passkey(assertion)
        }
        if let password = proof.password, !password.isEmpty { return .password(password) }
        if let assertion = proof.passkeyAssertion { return .passkey(assertion) }
        guard !requirement.hasPassword else {
            errors.add(.required, to: passwordField)
            return nil
        }
        let (token, nonce) = (proof.appleIdentityToken ?? "", proof.appleNonce ?? "")
        guard requirement.appleLinked || !token.isEmpty || !nonce.isEmpty else {
            errors.add(.required, to: StepUpProof.Member.passkeyAssertion.rawValue)
            return nil
        }
        if token.isEmpty { errors.add(.required, to: StepUpProof.Member.appleIdentityToken.rawValue) }
        if nonce.isEmpty { errors.add(.required, to: StepUpProof.Member.appleNonce.rawValue) }
        guard !token.isEmpty, !nonce.isEmpty else { return nil }
        return .apple(token: token, nonce: nonce)
    }
}

extension StepUp.FirstProof {
    /// The requirement's name for what this proves with.
    package var identity: StepUpRequirement.Identity {
        switch self {
        case .password: .password
        case .passkey: .passkey
        case .apple: .apple
        }
    }
}

/// A step-up whose first proof passed its check, to be spent with the change it allows
/// (``Services/write(after:_:_:)``).
package struct AcceptedStepUp: Sendable {
    package let stepUp: StepUp
    /// The Apple token to record as used; `nil` for a password or a passkey.
    package let appleIdentity: AppleIdentity?
}

extension Services {
    /// Reads the step-up proof of a request for `change` by the signed-in caller; the field errors
    /// go to `errors`, which the route throws together with its own.
    package func stepUp(
        _ proof: StepUpProof, for change: SensitiveChange, _ caller: SignedInCaller, passwordField: String = "password",
        into errors: inout FieldErrors
    ) async throws -> StepUp? {
        let user = caller.user
        var holdsPasskey = false
        if !user.totpEnabled && (proof.passkeyAssertion == nil || !(proof.password ?? "").isEmpty) {
            let userID = user.id
            holdsPasskey = try await store.read { try $0.passkeyCount(userID: userID) } > 0
        }
        return try StepUp.parse(proof, for: change, user: user, holdsPasskey: holdsPasskey, passwordField: passwordField, into: &errors)
    }

    /// The step-up `proof` gives for `change`, checked (``check(_:_:)``); a proof whose form is
    /// wrong is `400 validation_failed` with the field errors of `errors` and its own.
    package func accepted(
        _ proof: StepUpProof, for change: SensitiveChange, _ caller: SignedInCaller, adding errors: FieldErrors = FieldErrors()
    ) async throws -> AcceptedStepUp {
        var errors = errors
        let stepUp = try await stepUp(proof, for: change, caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        return try await check(stepUp, caller)
    }

    /// Checks the first proof of `stepUp` under the account's back-off, which every check of a
    /// proof or a code counts in (one counter per account with login's, shared by every server):
    /// the try is counted first (`429 rate_limited` during a back-off), and a refused proof confirms
    /// the failure: a wrong password is `403 invalid_credentials`, a passkey assertion that is not of
    /// this session's challenge and one of the caller's passkeys `400 challenge_invalid` /
    /// `403 passkey_invalid`, an Apple token not fresh or not of the Apple ID linked to the account
    /// `403 apple_token_invalid`. The second factor is checked with the change, in its transaction.
    package func check(_ stepUp: StepUp, _ caller: SignedInCaller) async throws -> AcceptedStepUp {
        let (user, route) = (caller.user, stepUp.change.route)
        let key = LoginThrottle.key(userID: user.id)
        if let retryAfter = try await throttle.reserveLoginTry(key: key, now: caller.now) {
            events.record(caller.event(.logged(.loginBackoff), ["via": route]))
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        func refused(_ check: FailedCheck) async throws {
            try await throttle.confirmLoginFailure(key: key, now: caller.now, event: caller.event(.checkFailed(check, via: route), ["via": route]))
        }
        switch stepUp.first {
        case .password(let password):
            guard try await passwords.verify(password, against: user.passwordHash) else {
                try await refused(.password)
                throw APIError.wrongPassword
            }
            return AcceptedStepUp(stepUp: stepUp, appleIdentity: nil)
        case .passkey(let assertion):
            do {
                try await checkPasskeyProof(assertion, caller, via: route)
            } catch let error as APIError {
                try await refused(.passkey)
                throw error
            }
            return AcceptedStepUp(stepUp: stepUp, appleIdentity: nil)
        case .apple(let token, let nonce):
            do {
                let identity = try await apple.identity(
                    token, nonce: nonce, caller.caller, userID: user.id, via: route, maximumAge: AppleSignIn.proofMaximumAge, status: 403)
                let userID = user.id
                guard try await store.read({ try $0.appleIdentity(userID: userID) })?.subject == identity.subject else {
                    throw apple.refuse(.wrongUser, caller.caller, userID: userID, via: route, status: 403)
                }
                return AcceptedStepUp(stepUp: stepUp, appleIdentity: identity)
            } catch let error as APIError where error.status != 503 {
                try await refused(.apple)
                throw error
            }
        }
    }

    /// Runs `body`, the change, in one write transaction with what its step-up spends, its events
    /// recorded through the ledger it is handed (``DomainEvents/write(_:)``): the Apple
    /// token is recorded as used (a token accepted before is `403 apple_token_invalid`), the
    /// second factor's code is checked and spent (a wrong one is `400 code_invalid`, counted in the
    /// back-off), and the account's back-off is forgotten. Nothing of `body` is written unless
    /// all of that holds; when `body` throws, the try the step-up counted is given back.
    package func write<T: Sendable>(
        after accepted: AcceptedStepUp, _ caller: SignedInCaller,
        _ body: @escaping @Sendable (any StoreTransaction, inout EventLedger) throws -> T
    ) async throws -> T {
        let (user, now, language, source) = (caller.user, caller.now, caller.language, caller.caller.source)
        let (factors, throttle, change) = (secondFactor, self.throttle, accepted.stepUp.change)
        let outcome: StepUpOutcome<T>
        do {
            outcome = try await events.write { tx, ledger -> StepUpOutcome<T> in
                if let identity = accepted.appleIdentity, try !AppleSignIn.spend(identity, in: tx) { return .replayed }
                if let factor = accepted.stepUp.secondFactor {
                    // Turning the factor off has a notice of its own; a recovery code spent then is not mailed.
                    let notify = change != .disableSecondFactor && change != .deleteAccount
                    let check = try factors.check(
                        factor, user: user, language: language, now: now, notify: notify, source: source, logged: false, in: &ledger)
                    if check == .wrong { return .wrongCode }
                }
                let value = try body(tx, &ledger)
                try throttle.clear(key: LoginThrottle.key(userID: user.id), in: tx)
                return .done(value)
            }
        } catch {
            // The change itself failed (the account went, the store failed): the proof was not
            // refused, so its counted try is given back.
            let key = LoginThrottle.key(userID: user.id)
            try? await store.write { try throttle.refundLoginTry(key: key, now: now, in: $0) }
            throw error
        }
        switch outcome {
        case .done(let value): return value
        case .replayed: throw apple.refuse(.replayed, caller.caller, userID: user.id, via: change.route, status: 403)
        case .wrongCode:
            try await throttle.refuseWrongCode(userID: user.id, now: now, source: caller.caller.source, via: change.route)
        }
    }
}

/// What the transaction of a stepped-up change came to.
private enum StepUpOutcome<T: Sendable>: Sendable {
    case done(T)
    case replayed
    case wrongCode
}
