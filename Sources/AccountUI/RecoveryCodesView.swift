#if canImport(SwiftUI)
import AccountKit
import Observation
import SwiftUI

/// A flow that ends with a new set of recovery codes on screen (turning the second factor on,
/// new codes): what they are for, the codes as one text, "I saved them", and Done.
@MainActor protocol ShowsRecoveryCodes: AnyObject, Observable {
    /// What the codes are for and that they are shown once.
    var instructions: String { get }
    /// The codes as "copy all" and share give them (one a line).
    var recoveryCodesText: String { get }
    var language: Language { get }
    /// "I saved them".
    var savedRecoveryCodes: Bool { get set }
    /// Whether Done is enabled ("I saved them" is on).
    var canFinish: Bool { get }
    /// Done.
    func finish()
}

extension TOTPEnrollmentFlow: ShowsRecoveryCodes {}
extension RecoveryCodesFlow: ShowsRecoveryCodes {}

/// A new set of recovery codes, shown once: what they are for (the flow's `instructions`), the
/// codes in a monospaced grid (two columns, one at accessibility text sizes), "copy all", share,
/// the "I saved them" switch, and Done, enabled only once that switch is on.
///
/// VoiceOver reads each code one character at a time, numbered ("1 of 10").
///
/// ```swift
/// case .recoveryCodes(let codes): RecoveryCodesView(flow: flow, codes: codes)
/// ```
struct RecoveryCodesView<Flow: ShowsRecoveryCodes>: View {
    @Bindable var flow: Flow
    let codes: [String]
    @Environment(\.dynamicTypeSize) private var typeSize

    private var language: Language { flow.language }
    private var text: String { flow.recoveryCodesText }

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text(flow.instructions)
                .fixedSize(horizontal: false, vertical: true)
            grid
            buttons {
                CopyButton(title: word(.copyAll), copiedTitle: word(.copied), text: text)
                ShareLink(item: text, subject: Text(word(.recoveryCodes))) {
                    Label(word(.share), systemImage: "square.and.arrow.up")
                }
            }
            .buttonStyle(.bordered)
            Toggle(word(.savedRecoveryCodes), isOn: $flow.savedRecoveryCodes)
            PrimaryButton(title: word(.done), isEnabled: flow.canFinish, isWorking: false, hint: word(.savedRecoveryCodesHint)) {
                flow.finish()
            }
        }
    }

    /// Side by side, or one under the other at accessibility text sizes.
    private var buttons: AnyLayout {
        typeSize.isAccessibilitySize ? AnyLayout(VStackLayout(alignment: .leading, spacing: 12)) : AnyLayout(HStackLayout(spacing: 12))
    }

    /// The codes, in rows of `columns`, read in order.
    private var grid: some View {
        let columns = typeSize.isAccessibilitySize ? 1 : 2
        return LazyVGrid(columns: Array(repeating: GridItem(.flexible(), alignment: .leading), count: columns), spacing: 10) {
            ForEach(Array(codes.enumerated()), id: \.offset) { index, code in
                Text(verbatim: code)
                    .font(.body.monospaced())
                    .textSelection(.enabled)
                    .accessibilityLabel(Text(verbatim: code).speechSpellsOutCharacters())
                    .accessibilityValue(AccountUIStrings.position(index + 1, of: codes.count, language))
            }
        }
        .padding()
        .background(.quaternary.opacity(0.5), in: RoundedRectangle(cornerRadius: 10))
        .accessibilityElement(children: .contain)
        .accessibilityLabel(word(.recoveryCodes))
    }

    private func word(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, language)
    }
}
#endif
