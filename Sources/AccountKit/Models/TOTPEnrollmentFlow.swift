import AccountAPI
import Foundation
import Observation

/// Turning on the second factor: the password, then the authenticator app's secret (a QR code of
/// ``otpauthURL`` and the key as text), then the app's first code, then the ten recovery codes,
/// which stay on screen until the person says they saved them.
///
/// ```swift
/// let flow = TOTPEnrollmentFlow(session: session)
/// flow.password = "correct horse battery"
/// await flow.start()                  // step == .scan(enrollment): draw flow.otpauthURL as a QR code
/// flow.code = "123456"
/// await flow.confirmIfComplete()      // step == .recoveryCodes(codes)
/// flow.savedRecoveryCodes = true
/// flow.finish()                       // step == .done
/// ```
@MainActor @Observable public final class TOTPEnrollmentFlow {
    /// Where the flow is.
    public enum Step: Sendable, Hashable {
        /// Asking for the password.
        case password
        /// The secret is issued: show it (QR code and text) and ask for the app's code.
        case scan(TOTPEnrollment)
        /// The factor is on: show the recovery codes (once) until ``TOTPEnrollmentFlow/finish()``.
        case recoveryCodes([String])
        /// Finished: the factor is on and the codes were saved.
        case done
    }

    /// A field of the flow: `.password`, then `.code`.
    public typealias Field = SecondFactorField

    /// The account's password.
    public var password = "" { didSet { refusal.password = nil } }
    /// The authenticator app's code (spaces ignored).
    public var code = "" { didSet { refusal.code = nil } }
    /// "I saved them": the recovery codes step ends only once this is on.
    public var savedRecoveryCodes = false { didSet { if savedRecoveryCodes { refusal.message = nil } } }

    /// Where the flow is.
    public private(set) var step: Step = .password
    /// A request is on its way.
    public private(set) var isWorking = false
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false
    private var refusal = SecondFactorRefusal()
    /// The last code sent, so an unchanged refused code is not sent again by itself.
    private var lastTriedCode: String?

    /// The signed-in session.
    public let session: SessionManager

    /// - Parameter session: the signed-in session; its client's language is the messages'.
    public init(session: SessionManager) {
        self.session = session
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// A message about the whole flow (already on, too many tries, connection lost…).
    public var message: String? { refusal.message }

    /// The message under `field`.
    public func errors(for field: Field) -> [String] { refusal.errors(for: field, method: .authenticatorCode) }

    /// What the current step asks, in a sentence.
    public var instructions: String {
        switch step {
        case .password: SecondFactorTexts.enterPassword(language)
        case .scan: SecondFactorTexts.scanInstructions(language)
        case .recoveryCodes, .done: SecondFactorTexts.saveRecoveryCodes(language)
        }
    }

    /// The enrolment being confirmed (``Step/scan(_:)``).
    public var enrollment: TOTPEnrollment? {
        if case .scan(let enrollment) = step { return enrollment }
        return nil
    }

    /// The `otpauth://` URI as a URL: what the QR code holds, and what "open in authenticator" opens.
    public var otpauthURL: URL? { enrollment?.otpauthURL }

    /// The secret in groups of four (`ABCD EFGH …`), for typing into an app by hand.
    public var groupedSecret: String? { enrollment?.groupedSecret }

    /// The recovery codes, while they are shown.
    public var recoveryCodes: [String] {
        if case .recoveryCodes(let codes) = step { return codes }
        return []
    }

    /// The recovery codes one a line, to copy or share.
    public var recoveryCodesText: String { recoveryCodes.joined(separator: "\n") }

    /// Whether the password step can be sent.
    public var canStart: Bool { step == .password && !isWorking && !password.isEmpty }

    /// Whether the typed code is six digits and can be sent.
    public var canConfirm: Bool { enrollment != nil && !isWorking && codeEntry.isComplete }

    /// Whether the recovery codes step can end ("I saved them" is on).
    public var canFinish: Bool { !recoveryCodes.isEmpty && savedRecoveryCodes }

    /// Sends the password; the reply's secret moves the flow to ``Step/scan(_:)``.
    public func start() async {
        guard step == .password, !isWorking else { return }
        guard !password.isEmpty else {
            refusal.password = SecondFactorTexts.enterPassword(language)
            return
        }
        await run { [session, password] in
            let enrollment = try await session.enrollTOTP(password: password)
            self.password = ""
            self.code = ""
            self.lastTriedCode = nil
            self.step = .scan(enrollment)
        }
    }

    /// Sends the code once its sixth digit is typed, unless this same code was refused already.
    public func confirmIfComplete() async {
        guard canConfirm, codeEntry.normalizedCode != lastTriedCode else { return }
        await confirm()
    }

    /// Sends the app's code; the factor is on and the recovery codes show.
    public func confirm() async {
        guard enrollment != nil, !isWorking else { return }
        let entry = codeEntry
        if !entry.isComplete {
            refusal.code = entry.requirement(language)
            return
        }
        lastTriedCode = entry.normalizedCode
        await run { [session] in
            let codes = try await session.confirmTOTP(code: entry.normalizedCode)
            self.code = ""
            self.savedRecoveryCodes = false
            self.step = .recoveryCodes(codes)
        }
    }

    /// Ends the recovery codes step once ``savedRecoveryCodes`` is on (else says to confirm it).
    public func finish() {
        guard case .recoveryCodes = step else { return }
        guard savedRecoveryCodes else {
            refusal.message = SecondFactorTexts.confirmSaved(language)
            return
        }
        refusal = SecondFactorRefusal()
        step = .done
    }

    /// Back to the password (a new secret replaces the unconfirmed one).
    public func startOver() {
        guard !isWorking, step != .done else { return }
        if case .recoveryCodes = step { return }
        step = .password
        code = ""
        refusal = SecondFactorRefusal()
    }

    private var codeEntry: SecondFactorEntry { SecondFactorEntry(code: code, recoveryCode: nil) }

    /// Runs a request with `isWorking` set, and shows its refusal.
    private func run(_ body: () async throws -> Void) async {
        isWorking = true
        refusal = SecondFactorRefusal()
        defer { isWorking = false }
        do {
            try await body()
        } catch {
            apply(AccountError(wrapping: error))
        }
    }

    private func apply(_ error: AccountError) {
        refusal = SecondFactorRefusal(error, entry: codeEntry, language)
        isSignedOut = refusal.endsSession
        // Confirming without an enrolment: another device started one, or it was confirmed
        // elsewhere; start again from the password.
        if error == .conflict(.mfaNotEnabled), enrollment != nil {
            step = .password
            refusal.message = SecondFactorTexts.enrolmentEnded(language)
        }
    }
}
