#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The account's security history over ``SecurityHistory``: each event's title, device and
/// address, and time in the app's language; failed attempts and the like marked; older events a
/// page at a time. Reached from the profile.
struct SecurityHistoryScreen: View {
    @State private var history: SecurityHistory

    @MainActor init(session: SessionManager) {
        _history = State(initialValue: SecurityHistory(session: session))
    }

    var body: some View {
        List {
            if history.message != nil {
                Section {
                    FormMessageView(message: history.message)
                }
            }
            Section {
                if history.isEmpty && !history.isLoading && history.message == nil {
                    Text(history.emptyText)
                        .foregroundStyle(.secondary)
                }
                ForEach(history.entries) { entry in
                    SecurityEventRow(entry: entry, language: history.language)
                }
                if history.hasMore {
                    Button(SecurityEventTexts.showOlder(history.language)) {
                        Task { await history.loadMore() }
                    }
                    .disabled(history.isLoading)
                }
            } footer: {
                Text(SecurityEventTexts.screenFooter(history.language))
            }
        }
        .accountColumn()
        .navigationTitle(SecurityEventTexts.screenTitle(history.language))
        .overlay {
            if history.isLoading && history.entries.isEmpty {
                ProgressView()
                    .accessibilityLabel(AccountUIStrings.text(.loading, history.language))
            }
        }
        .task { await history.load() }
        .refreshable { await history.load() }
    }
}

/// One event: an icon (a warning for failed attempts and the like), its title, where it came
/// from and when, in this device's time zone and the screens' language. VoiceOver reads the row as
/// one element, "Warning" first for a warning.
struct SecurityEventRow: View {
    let entry: SecurityHistory.Entry
    let language: Language

    var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 12) {
            Image(systemName: entry.isWarning ? "exclamationmark.triangle.fill" : "checkmark.shield")
                .foregroundStyle(entry.isWarning ? Color.orange : Color.secondary)
                // The warning is read first ("Warning, Failed login attempt, …"); the plain marker is not read.
                .accessibilityLabel(AccountUIStrings.text(.warning, language))
                .accessibilityHidden(!entry.isWarning)
            VStack(alignment: .leading, spacing: 4) {
                Text(entry.title)
                    .font(.body)
                if let origin = entry.origin {
                    Text(origin)
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }
                Text(entry.at.formatted(
                    Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: language.rawValue), timeZone: .current)))
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
        }
        .accessibilityElement(children: .combine)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Security history") { AccountPreviews.securityHistory() }
#Preview("보안 기록") { AccountPreviews.securityHistory(language: .ko) }
#endif
#endif
