#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// What an authenticator app needs to add the account: the QR code of the `otpauth://` URI and,
/// beside it (below it on a narrow screen or at large text sizes), the key in groups of four
/// with a copy button, for typing by hand, for VoiceOver users, and on the phone that shows the
/// code and so cannot scan it.
struct AuthenticatorKeyView: View {
    /// The secret and its `otpauth://` URI.
    let enrollment: TOTPEnrollment
    let language: Language
    @Environment(\.dynamicTypeSize) private var typeSize

    var body: some View {
        if typeSize.isAccessibilitySize {
            VStack(alignment: .leading, spacing: 16) { content }
        } else {
            ViewThatFits(in: .horizontal) {
                HStack(alignment: .center, spacing: 16) { content }
                VStack(alignment: .leading, spacing: 16) { content }
            }
        }
    }

    @ViewBuilder private var content: some View {
        QRCodeView(text: enrollment.otpauthURI, label: text(.qrCodeLabel))
            .frame(width: 180, height: 180)
        key
    }

    /// The key, read one character at a time by VoiceOver, and its copy button.
    private var key: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(text(.setupKey))
                .font(.subheadline)
                .foregroundStyle(.secondary)
                .accessibilityHidden(true)
            Text(verbatim: enrollment.groupedSecret)
                .font(.body.monospaced())
                .textSelection(.enabled)
                .fixedSize(horizontal: false, vertical: true)
                .accessibilityLabel(text(.setupKey))
                .accessibilityValue(Text(verbatim: enrollment.secret).speechSpellsOutCharacters())
            CopyButton(title: text(.copy), copiedTitle: text(.copied), text: enrollment.secret)
                .buttonStyle(.bordered)
        }
        .frame(minWidth: 180, alignment: .leading)
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, language)
    }
}
#endif
