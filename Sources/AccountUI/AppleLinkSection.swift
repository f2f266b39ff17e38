#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// Sign in with Apple in the profile over ``AppleLinkModel``: linked or not, and linking or
/// unlinking, each in a sheet that asks the step-up proof first (``StepUpSheet``; a link then goes
/// through Apple's sheet); an unlink is refused, with the reason, while it is the account's only
/// way to log in.
struct AppleLinkSection: View {
    let model: AppleLinkModel

    var body: some View {
        Section {
            LabeledContent {
                Text(text(model.isLinked ? .linked : .notLinked))
            } label: {
                Label(text(.signInWithApple), systemImage: "applelogo")
            }
            if model.isLinked {
                Button(text(.unlinkApple), role: .destructive) { model.begin(.unlink) }
                    .disabled(model.isWorking)
            } else {
                Button(text(.linkApple)) { model.begin(.link) }
                    .disabled(model.isWorking)
            }
            if let notice = model.notice {
                NoticeLabel(notice: notice)
            }
        } footer: {
            Text(text(.appleHint))
        }
        .sheet(item: Binding(get: { model.stepUp }, set: { if $0 == nil { model.cancel() } })) { proof in
            NavigationStack {
                StepUpSheet(
                    title: model.action == .unlink ? .unlinkAppleTitle : .linkApple, proof: proof,
                    action: model.action == .unlink ? .unlinkApple : .linkApple, canSubmit: proof.isComplete,
                    isFinished: model.stepUp == nil || model.isSignedOut, submit: model.confirm
                ) {
                    Text(text(model.action == .unlink ? .unlinkAppleMessage : .appleHint))
                        .fixedSize(horizontal: false, vertical: true)
                }
            }
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, model.language)
    }
}

/// What just succeeded in a profile section, in green, announced when it appears.
struct NoticeLabel: View {
    let notice: String

    var body: some View {
        Label(notice, systemImage: "checkmark.circle")
            .font(.footnote)
            .foregroundStyle(.green)
            .announcesNew([notice])
    }
}
#endif
