#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The profile's passkeys over ``PasskeyListModel``: the account's list with a remove button each
/// (``PasskeyRemovalScreen`` in a sheet), "Add a passkey" (a sheet with the name, suggested from
/// the device, and the step-up proof, then the system's sheet), and what just happened.
struct PasskeysSection: View {
    @Bindable var model: PasskeyListModel
    /// The signed-in account (what it holds decides what a removal asks).
    let user: User?
    @State private var removal: PasskeyRemovalForm?

    var body: some View {
        Section {
            ForEach(model.passkeys, id: \.id) { passkey in
                PasskeyRow(passkey: passkey, language: model.language) {
                    if let user { removal = model.removal(of: passkey, for: user) }
                }
            }
            Button {
                model.startAdding()
            } label: {
                Label(text(.addPasskey), systemImage: "plus.circle")
            }
            .disabled(model.isWorking || user == nil)
            if let notice = model.notice {
                NoticeLabel(notice: notice)
            }
            FormMessageView(message: model.message)
        } header: {
            Text(text(.passkeys))
        } footer: {
            Text(text(.passkeysHint))
        }
        .sheet(item: Binding(get: { model.addition }, set: { if $0 == nil { model.cancelAdding() } })) { proof in
            NavigationStack {
                StepUpSheet(
                    title: .addPasskey, proof: proof, action: .add, canSubmit: model.canAdd,
                    isFinished: model.addition == nil || model.isSignedOut, submit: model.add
                ) {
                    Text(text(.passkeyNameMessage))
                        .foregroundStyle(.secondary)
                        .fixedSize(horizontal: false, vertical: true)
                    VStack(alignment: .leading, spacing: 6) {
                        TextField(text(.passkeyName), text: $model.newName)
                            .textFieldStyle(.roundedBorder)
                            .accessibilityLabel(text(.passkeyName))
                        FieldErrorsView(errors: model.nameErrors)
                    }
                }
            }
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
