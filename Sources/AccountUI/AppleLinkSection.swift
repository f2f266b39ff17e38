#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// Sign in with Apple in the profile over ``AppleLinkModel``: linked or not, linking through
/// Apple's sheet, unlinking after asking (refused, with the reason, while it is the account's
/// only way to log in).
struct AppleLinkSection: View {
    let model: AppleLinkModel
    @State private var asksToUnlink = false

    var body: some View {
        Section {
            LabeledContent {
                Text(text(model.isLinked ? .linked : .notLinked))
            } label: {
                Label(text(.signInWithApple), systemImage: "applelogo")
            }
            if model.isLinked {
                Button(text(.unlinkApple), role: .destructive) { asksToUnlink = true }
                    .disabled(model.isWorking)
            } else {
                Button(text(.linkApple)) {
                    Task { await model.link() }
                }
                .disabled(model.isWorking)
            }
            if let notice = model.notice {
                Label(notice, systemImage: "checkmark.circle")
                    .font(.footnote)
                    .foregroundStyle(.green)
                    .announcesNew([notice])
            }
            FormMessageView(message: model.message)
        } footer: {
            Text(text(.appleHint))
        }
        .alert(text(.unlinkAppleTitle), isPresented: $asksToUnlink) {
            Button(text(.unlinkApple), role: .destructive) {
                Task { await model.unlink() }
            }
            Button(text(.cancel), role: .cancel) {}
        } message: {
            Text(text(.unlinkAppleMessage))
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, model.language)
    }
}
#endif
