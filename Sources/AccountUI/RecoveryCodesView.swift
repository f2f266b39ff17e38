#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// A new set of recovery codes, shown once: what they are for, the codes in a monospaced grid
/// (two columns, one at accessibility text sizes), "copy all", share, and the "I saved them"
/// switch a flow waits for before it lets the user finish.
///
/// VoiceOver reads each code one character at a time, numbered ("1 of 10").
///
/// ```swift
/// RecoveryCodesView(codes: codes, language: .en, saved: $flow.codesSaved)
/// ```
struct RecoveryCodesView: View {
    let codes: [String]
    let language: Language
    @Binding var saved: Bool
    @Environment(\.dynamicTypeSize) private var typeSize

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text(text(.recoveryCodesHint))
                .fixedSize(horizontal: false, vertical: true)
            grid
            HStack(spacing: 12) {
                CopyButton(title: text(.copyAll), copiedTitle: text(.copied), text: allCodes)
                ShareLink(item: allCodes, subject: Text(text(.recoveryCodes))) {
                    Label(text(.share), systemImage: "square.and.arrow.up")
                }
            }
            .buttonStyle(.bordered)
            Toggle(text(.savedRecoveryCodes), isOn: $saved)
        }
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
        .accessibilityLabel(text(.recoveryCodes))
    }

    private var allCodes: String { SecondFactorText.recoveryCodes(codes) }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, language)
    }
}
#endif
