#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// One signed-in device in the profile's sessions list, with its revoke button.
struct SessionRow: View {
    let session: SessionInfo
    let language: Language
    let revoke: () -> Void

    var body: some View {
        HStack(alignment: .firstTextBaseline) {
            VStack(alignment: .leading, spacing: 4) {
                Text(session.userAgent ?? AccountUIStrings.text(.unknownDevice, language))
                    .font(.body)
                if session.current {
                    Text(AccountUIStrings.text(.thisDevice, language))
                        .font(.caption)
                        .foregroundStyle(.tint)
                }
                Text(verbatim: "\(AccountUIStrings.text(.lastUsed, language)): \(session.lastUsedAt.formatted(date: .abbreviated, time: .shortened))")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            .accessibilityElement(children: .combine)
            Spacer()
            Button(role: .destructive, action: revoke) {
                Image(systemName: "xmark.circle")
            }
            .buttonStyle(.borderless)
            .accessibilityLabel(AccountUIStrings.text(.revoke, language))
        }
    }
}
#endif
