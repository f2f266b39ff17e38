#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The profile's passkeys over ``PasskeyListModel``: the account's list with a remove button each
/// (``PasskeyRemovalScreen`` in a sheet), "Add a passkey" (a name, suggested from the device, then
/// the system's sheet), and what just happened.
struct PasskeysSection: View {
    @Bindable var model: PasskeyListModel
    /// The signed-in account (its password and second factor decide what a removal asks).
    let user: User?
    @State private var asksName = false
    @State private var removal: PasskeyRemovalForm?

    var body: some View {
        Section {
            ForEach(model.passkeys, id: \.id) { passkey in
                PasskeyRow(passkey: passkey, language: model.language) {
                    if let user { removal = model.removal(of: passkey, for: user) }
                }
            }
            Button {
                model.newName = PasskeyName.suggestion
                asksName = true
            } label: {
                Label(text(.addPasskey), systemImage: "plus.circle")
            }
            .disabled(model.isWorking || user == nil)
            if let notice = model.notice {
                Label(notice, systemImage: "checkmark.circle")
                    .font(.footnote)
                    .foregroundStyle(.green)
                    .announcesNew([notice])
            }
            FormMessageView(message: model.message)
        } header: {
            Text(text(.passkeys))
        } footer: {
            Text(text(.passkeysHint))
        }
        .alert(text(.addPasskey), isPresented: $asksName) {
            TextField(text(.passkeyName), text: $model.newName)
            Button(text(.add)) {
                Task { await model.add() }
            }
            .disabled(!model.canAdd)
            Button(text(.cancel), role: .cancel) {}
        } message: {
            Text(text(.passkeyNameMessage))
        }
        .sheet(item: $removal) { form in
            NavigationStack {
                PasskeyRemovalScreen(form: form)
            }
        }
        .task { await model.load() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, model.language)
    }
}
#endif
