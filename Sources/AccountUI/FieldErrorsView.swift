#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The messages under a field, one line each, read by VoiceOver as one element; a message that
/// appears is announced once (the field itself does not repeat them).
struct FieldErrorsView: View {
    let errors: [String]

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            ForEach(errors, id: \.self) { message in
                Label(message, systemImage: "exclamationmark.circle")
                    .font(.footnote)
                    .foregroundStyle(.red)
            }
        }
        .accessibilityElement(children: .combine)
        .announcesNew(errors)
    }
}

/// A message about the whole screen (connection lost, too many requests…), announced when it appears.
struct FormMessageView: View {
    let message: String?

    var body: some View {
        Group {
            if let message {
                Text(message)
                    .font(.callout)
                    .foregroundStyle(.red)
                    .fixedSize(horizontal: false, vertical: true)
            }
        }
        .announcesNew(message.map { [$0] } ?? [])
    }
}

extension View {
    /// Posts a VoiceOver announcement for a message of `messages` that was not there before.
    func announcesNew(_ messages: [String]) -> some View {
        onChange(of: messages) { old, new in
            if let text = Announcement.new(in: new, before: old) {
                AccessibilityNotification.Announcement(text).post()
            }
        }
    }
}
#endif
