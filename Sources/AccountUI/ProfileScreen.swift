#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The profile screen over ``ProfileModel``: nickname, email with its verified badge and MBTI
/// type, editing, logging out here or everywhere, and the signed-in devices with revoke.
public struct ProfileScreen: View {
    enum Field: Hashable {
        case nickname
    }

    @State private var profile: ProfileModel
    @FocusState private var focus: Field?
    @State private var asksToLogOutEverywhere = false

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - user: the user the session state carries, shown before the fresh copy arrives.
    @MainActor public init(session: SessionManager, user: User) {
        let profile = ProfileModel(session: session)
        profile.show(user)
        _profile = State(initialValue: profile)
    }

    public var body: some View {
        List {
            Section {
                if profile.isEditing {
                    editor
                } else if let user = profile.user {
                    details(user)
                }
            }
            if let message = profile.message {
                Section {
                    Text(message)
                        .foregroundStyle(.red)
                }
            }
            Section(text(.sessions)) {
                ForEach(profile.sessions) { info in
                    SessionRow(session: info, language: profile.language) {
                        Task { await profile.revoke(info.id) }
                    }
                }
            }
            Section {
                Button(text(.logOut)) {
                    Task { await profile.logOut() }
                }
                .accessibilityLabel(text(.logOut))
                Button(text(.logOutEverywhere), role: .destructive) {
                    asksToLogOutEverywhere = true
                }
                .accessibilityLabel(text(.logOutEverywhere))
            }
        }
        .accountColumn()
        .navigationTitle(text(.profile))
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                if profile.isEditing {
                    Button(text(.save)) {
                        Task { await profile.save() }
                    }
                    .disabled(!profile.canSave)
                    .accessibilityLabel(text(.save))
                } else {
                    Button(text(.edit)) { profile.startEditing() }
                        .disabled(profile.user == nil)
                        .accessibilityLabel(text(.edit))
                }
            }
            ToolbarItem(placement: .cancellationAction) {
                if profile.isEditing {
                    Button(text(.cancel)) { profile.cancelEditing() }
                        .accessibilityLabel(text(.cancel))
                }
            }
        }
        .confirmationDialog(text(.logOutEverywhere), isPresented: $asksToLogOutEverywhere, titleVisibility: .visible) {
            Button(text(.logOutEverywhere), role: .destructive) {
                Task { await profile.logOutEverywhere() }
            }
            Button(text(.cancel), role: .cancel) {}
        } message: {
            Text(text(.logOutEverywhereMessage))
        }
        .task {
            await profile.load()
            await profile.loadSessions()
        }
        .refreshable {
            await profile.load()
            await profile.loadSessions()
        }
    }

    @ViewBuilder private func details(_ user: User) -> some View {
        LabeledContent(text(.nickname), value: user.username)
        LabeledContent(text(.email)) {
            HStack(spacing: 6) {
                Text(user.email)
                Image(systemName: user.emailVerified ? "checkmark.seal.fill" : "exclamationmark.triangle")
                    .foregroundStyle(user.emailVerified ? Color.accentColor : Color.orange)
                    .accessibilityLabel(text(user.emailVerified ? .verified : .notVerified))
            }
        }
        LabeledContent(text(.mbti), value: user.mbti.rawValue)
    }

    @ViewBuilder private var editor: some View {
        SignupTextFieldView(
            kind: .nickname, title: text(.nickname), text: $profile.draftUsername, field: Field.nickname,
            focus: $focus, errors: profile.usernameErrors, submitLabel: .done
        ) { focus = nil }
        MBTIPicker(
            title: text(.mbti), placeholder: text(.chooseMBTI), selection: $profile.draftMBTI,
            choices: profile.mbtiChoices, errors: profile.mbtiErrors)
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, profile.language)
    }
}
#endif
