#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// One signed-in device in the profile's sessions list (named from its `User-Agent`), the address
/// it was last used from (when the server knows it, so people can recognise their sessions), when
/// it was last used in local time and the app's language, and its "Log out" button (the screen
/// asks before it logs anything out).
struct SessionRow: View {
    let session: SessionInfo
    let language: Language
    let revoke: () -> Void

    var body: some View {
        HStack(alignment: .firstTextBaseline) {
            VStack(alignment: .leading, spacing: 4) {
                Text(name)
                    .font(.body)
                if let address = session.clientAddress {
                    Text(verbatim: address)
                        .font(.caption.monospaced())
                        .foregroundStyle(.secondary)
                        .textSelection(.enabled)
                }
                if session.current {
                    Text(AccountUIStrings.text(.thisDevice, language))
                        .font(.caption)
                        .foregroundStyle(.tint)
                }
                Text(verbatim: "\(AccountUIStrings.text(.lastUsed, language)): \(lastUsed)")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            .accessibilityElement(children: .combine)
            Spacer()
            Button(AccountUIStrings.text(.logOut, language), role: .destructive, action: revoke)
                .buttonStyle(.bordered)
                .controlSize(.small)
                .accessibilityLabel(AccountUIStrings.logOutDevice(name, language))
        }
    }

    /// The device's name, or "Unknown device".
    private var name: String { session.deviceName ?? AccountUIStrings.text(.unknownDevice, language) }

    /// In this device's time zone, worded in the screens' language (not the device's region alone).
    private var lastUsed: String {
        session.lastUsedAt.formatted(
            Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: language.rawValue), timeZone: .current))
    }
}
#endif
