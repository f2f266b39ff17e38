import AccountAPI
import Foundation

/// The passkey screens' sentences in Korean and English.
enum PasskeyTexts {
    static let nameRequired = LocalizedText(en: "Give the passkey a name, like “iPhone”.", ko: "“iPhone”처럼 패스키 이름을 입력해 주세요.")
    static let nameTooLong = LocalizedText(
        en: "Use at most \(PasskeyName.maxLength) characters.", ko: "이름은 \(PasskeyName.maxLength)자 이하여야 해요.")
    static let nameInvalid = LocalizedText(
        en: "The name cannot hold control characters.", ko: "이름에 제어 문자를 쓸 수 없어요.")
    static let exists = LocalizedText(
        en: "This device's passkey is already on your account.", ko: "이 기기의 패스키는 이미 계정에 추가되어 있어요.")
    static func added(_ name: String) -> LocalizedText {
        LocalizedText(en: "Passkey “\(name)” added. You can log in with it now.", ko: "\(KoreanParticle.object.attached(to: "패스키 “\(name)”")) 추가했어요. 이제 이 패스키로 로그인할 수 있어요.")
    }
    static let invalidAtLogin = LocalizedText(
        en: "This passkey is not on any account here any more. Log in another way, and remove the old passkey from your device's passwords.",
        ko: "이 패스키는 더 이상 어떤 계정에도 등록되어 있지 않아요. 다른 방법으로 로그인하고, 기기의 암호 목록에서 예전 패스키를 지워 주세요.")
    static let restart = LocalizedText(
        en: "The passkey request ran out or was already used. Please try again.",
        ko: "패스키 요청이 만료되었거나 이미 사용되었어요. 다시 시도해 주세요.")
    static let removeInstructions = LocalizedText(
        en: "You can no longer log in with this passkey once it is removed.",
        ko: "삭제하면 이 패스키로 더 이상 로그인할 수 없어요.")
    static let confirmWithPasskey = LocalizedText(
        en: "Your account has no password: confirm it is you with one of your passkeys.",
        ko: "계정에 비밀번호가 없어요. 패스키로 본인임을 확인해 주세요.")
    static let synced = LocalizedText(en: "Synced with iCloud Keychain", ko: "iCloud 키체인과 동기화됨")
    static let thisDeviceOnly = LocalizedText(en: "On one device only", ko: "한 기기에만 있음")
}

/// A passkey's name: what the account's list and the notice mail call it ("iPhone", "회사 노트북").
public enum PasskeyName {
    /// Most characters in a name, as the server counts them (after trimming).
    public static let maxLength = 64

    /// Why `raw` cannot name a passkey (empty when it can): ``FieldErrorCode/required``,
    /// ``FieldErrorCode/tooLong``, or ``FieldErrorCode/invalidFormat`` for control characters.
    public static func validate(_ raw: String) -> [FieldErrorCode] {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return [.required] }
        if name.count > maxLength { return [.tooLong] }
        let hidden = name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.isDefaultIgnorableCodePoint }
        return hidden ? [.invalidFormat] : []
    }

    /// A name for a passkey made on this device: its kind ("iPhone", "iPad", "Mac") or, elsewhere,
    /// its system ("Linux").
    public static var suggestion: String { suggestion(model: DeviceInfo.current.model, system: DeviceInfo.current.system) }

    /// The name for a device of `model` (`iPhone15,2`, `MacBookPro18,3`) running `system`.
    static func suggestion(model: String, system: String) -> String {
        for kind in ["iPhone", "iPad", "iPod", "Mac", "RealityDevice"] where model.hasPrefix(kind) {
            return kind == "RealityDevice" ? "Apple Vision Pro" : kind
        }
        switch system {
        case "macOS": return "Mac"
        case "visionOS": return "Apple Vision Pro"
        default: return system
        }
    }

    /// The sentence for `code` on the name field, in `language`.
    static func message(_ code: FieldErrorCode, _ language: Language) -> String {
        switch code {
        case .required: PasskeyTexts.nameRequired(language)
        case .tooLong: PasskeyTexts.nameTooLong(language)
        default: PasskeyTexts.nameInvalid(language)
        }
    }
}

extension Passkey {
    /// "Synced with iCloud Keychain" for a passkey that may travel between the owner's devices
    /// (backup eligible), "On one device only" otherwise; in `language`.
    public func storageDescription(_ language: Language) -> String {
        backupEligible ? PasskeyTexts.synced(language) : PasskeyTexts.thisDeviceOnly(language)
    }
}
