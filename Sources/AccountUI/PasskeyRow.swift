#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// One passkey in the profile's list: its name, where it lives (synced, or on one device), when
/// it was added and last used in local time and the app's language, and its remove button.
struct PasskeyRow: View {
    let passkey: Passkey
    let language: Language
    let remove: () -> Void

    var body: some View {
        HStack(alignment: .firstTextBaseline) {
            VStack(alignment: .leading, spacing: 4) {
                Label(passkey.name, systemImage: "person.badge.key")
                    .font(.body)
                Text(passkey.storageDescription(language))
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Text(verbatim: "\(text(.added)): \(formatted(passkey.createdAt))")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Text(verbatim: passkey.lastUsedAt.map { "\(text(.lastUsed)): \(formatted($0))" } ?? text(.notUsedYet))
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            .accessibilityElement(children: .combine)
            Spacer()
            Button(role: .destructive, action: remove) {
                Image(systemName: "trash")
            }
            .buttonStyle(.borderless)
            .accessibilityLabel(text(.removePasskey))
        }
    }

    private func formatted(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: language.rawValue), timeZone: .current))
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, language)
    }
}
#endif
