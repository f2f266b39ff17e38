#if canImport(SwiftUI)
import AccountKit
import SwiftUI
#if canImport(UIKit)
import UIKit
import UniformTypeIdentifiers
#elseif canImport(AppKit)
import AppKit
#endif

/// Copies a secret (the authenticator key, the recovery codes) to the clipboard and says so: the
/// button reads "Copied" for a moment, and VoiceOver announces it.
///
/// On iOS the copy stays on this device (no Universal Clipboard to the user's other devices) and
/// leaves the clipboard after ``SecretClipboard/lifetime``, so a secret does not linger there for
/// whatever app reads the clipboard next.
struct CopyButton: View {
    let title: String
    let copiedTitle: String
    let text: String
    @State private var copiedAt: Date?

    var body: some View {
        Button {
            SecretClipboard.copy(text)
            copiedAt = Date()
            AccessibilityNotification.Announcement(copiedTitle).post()
        } label: {
            if copiedAt == nil {
                Label(title, systemImage: "doc.on.doc")
            } else {
                Label(copiedTitle, systemImage: "checkmark")
            }
        }
        .task(id: copiedAt) {
            guard copiedAt != nil else { return }
            try? await Task.sleep(for: .seconds(2))
            if !Task.isCancelled { copiedAt = nil }
        }
    }
}

/// The clipboard, for secrets.
enum SecretClipboard {
    /// How long a copied secret stays on the clipboard (iOS): long enough to paste it into an
    /// authenticator app or a password manager.
    static let lifetime: TimeInterval = 5 * 60

    /// Puts `text` on the clipboard: local to this device and expiring on iOS.
    @MainActor static func copy(_ text: String) {
        #if canImport(UIKit)
        UIPasteboard.general.setItems(
            [[UTType.utf8PlainText.identifier: text]],
            options: [.localOnly: true, .expirationDate: Date().addingTimeInterval(lifetime)])
        #elseif canImport(AppKit)
        NSPasteboard.general.clearContents()
        NSPasteboard.general.setString(text, forType: .string)
        #endif
    }
}
#endif
