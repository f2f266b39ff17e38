#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The profile screen over ``ProfileModel``: nickname, email with its verified badge and MBTI
/// type, editing, the two-step verification switch (on: ``TOTPEnrollmentScreen``; off:
/// ``SecondFactorDisableScreen``; each in a sheet) with new recovery codes while it is on, the
/// passkeys (``PasskeysSection``) and Sign in with Apple (``AppleLinkSection``) when the app offers
/// them, a new password (``PasswordChangeScreen``), logging out here or everywhere (each asked
/// first, in an alert), the signed-in devices with a "Log out" each (asked first too: this device's
/// as "Log out", another's naming the device), the way to the account's security
/// history (``SecurityHistoryScreen``), and deleting the account (``AccountDeletionScreen``). Every
/// change of how the account signs in asks its step-up proof first (``StepUpFields``).
struct ProfileScreen: View {
    enum Field: Hashable {
        case nickname
    }

    /// The flow shown in a sheet.
    enum Sheet: Hashable, Identifiable {
        case enroll
        case disable
        case newRecoveryCodes
        case changePassword
        case deleteAccount

        var id: Self { self }
    }

    @State private var profile: ProfileModel
    @FocusState private var focus: Field?
    @State private var asksToLogOut = false
    @State private var asksToLogOutEverywhere = false
    @State private var sheet: Sheet?
    @State private var passkeys: PasskeyListModel?
    @State private var apple: AppleLinkModel?
    /// The ways to log in the app offers, which may prove the account in a step-up.
    private let methods: SignInMethods

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - user: the user the session state carries, shown before the fresh copy arrives.
    ///   - methods: the ways to log in the app offers beside the password; their sections show.
    @MainActor init(session: SessionManager, user: User, methods: SignInMethods = []) {
        let profile = ProfileModel(session: session)
        profile.show(user)
        _profile = State(initialValue: profile)
        self.methods = methods
        let passkeyAuthorizer = methods.passkeyAuthorizer
        let appleAuthorizer = methods.appleAuthorizer
        _passkeys = State(initialValue: passkeyAuthorizer.map { PasskeyListModel(session: session, authorizer: $0, apple: appleAuthorizer) })
        _apple = State(initialValue: appleAuthorizer.map { AppleLinkModel(session: session, authorizer: $0, passkeys: passkeyAuthorizer) })
    }

    var body: some View {
        List {
            Section {
                if profile.isEditing {
                    editor
                } else if let user = profile.user {
                    details(user)
                }
            }
            if profile.message != nil {
                Section {
                    FormMessageView(message: profile.message)
                }
            }
            if profile.offersSecondFactor {
                secondFactor
            }
            if let passkeys {
                PasskeysSection(model: passkeys, user: profile.user)
            }
            if let apple, apple.isOffered {
                AppleLinkSection(model: apple)
            }
            Section(text(.sessions)) {
                ForEach(profile.sessions) { info in
                    SessionRow(session: info, language: profile.language) {
                        profile.askToRevoke(info.id)
                    }
                }
            }
            Section {
                NavigationLink {
                    SecurityHistoryScreen(session: profile.session)
                } label: {
                    Label(SecurityEventTexts.screenTitle(profile.language), systemImage: "clock.arrow.circlepath")
                }
            }
            Section {
                Button(text(.changePassword)) { sheet = .changePassword }
                    .disabled(profile.user == nil)
                Button(text(.logOut)) { asksToLogOut = true }
                Button(text(.logOutEverywhere), role: .destructive) { asksToLogOutEverywhere = true }
            }
            Section {
                Button(text(.deleteAccount), role: .destructive) { sheet = .deleteAccount }
                    .disabled(profile.user == nil)
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
                    .keyboardShortcut(.defaultAction)
                } else {
                    Button(text(.edit)) { profile.startEditing() }
                        .disabled(profile.user == nil)
                }
            }
            ToolbarItem(placement: .cancellationAction) {
                if profile.isEditing {
                    Button(text(.cancel)) { profile.cancelEditing() }
                }
            }
        }
        .alert(text(.logOutTitle), isPresented: $asksToLogOut) {
            Button(text(.logOut), role: .destructive) {
                Task { await profile.logOut() }
            }
            Button(text(.cancel), role: .cancel) {}
        } message: {
            Text(text(.logOutMessage))
        }
        .alert(revokeTitle, isPresented: asksToRevoke) {
            Button(text(.logOut), role: .destructive) {
                Task { await profile.confirmRevoke() }
            }
            Button(text(.cancel), role: .cancel) { profile.cancelRevoke() }
        } message: {
            Text(text(profile.revokeLogsOutHere ? .logOutMessage : .logOutDeviceMessage))
        }
        .alert(text(.logOutEverywhereTitle), isPresented: $asksToLogOutEverywhere) {
            Button(text(.logOutEverywhere), role: .destructive) {
                Task { await profile.logOutEverywhere() }
            }
            Button(text(.cancel), role: .cancel) {}
        } message: {
            Text(text(.logOutEverywhereMessage))
        }
        .sheet(item: $sheet, onDismiss: { Task { await profile.load() } }) { sheet in
            NavigationStack {
                switch sheet {
                case .enroll: TOTPEnrollmentScreen(session: profile.session, methods: methods)
                case .disable: SecondFactorDisableScreen(session: profile.session, methods: methods)
                case .newRecoveryCodes: NewRecoveryCodesScreen(session: profile.session, methods: methods)
                case .changePassword: PasswordChangeScreen(session: profile.session, methods: methods)
                case .deleteAccount: AccountDeletionScreen(session: profile.session, methods: methods)
                }
            }
        }
        .onChange(of: profile.user) { _, user in
            if let user { apple?.show(user) }
        }
        .task {
            await profile.load()
            await profile.loadSessions()
        }
        .refreshable {
            await profile.load()
            await profile.loadSessions()
            await passkeys?.load()
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

    /// The switch (its state is the account's; flipping it opens the flow that changes it), what
    /// it means while off, the recovery codes left and a new set while on.
    private var secondFactor: some View {
        Section {
            Toggle(isOn: Binding(get: { profile.isSecondFactorOn }, set: { _ in flipSecondFactor() })) {
                VStack(alignment: .leading, spacing: 2) {
                    Text(text(.twoStepVerification))
                    Text(profile.secondFactorSummary)
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                }
            }
            .disabled(profile.user == nil)
            if let warning = profile.recoveryCodesWarning {
                Label(warning, systemImage: "exclamationmark.triangle")
                    .font(.footnote)
                    .foregroundStyle(.orange)
            }
            if profile.isSecondFactorOn {
                Button(text(.newRecoveryCodes)) { sheet = .newRecoveryCodes }
            }
        } footer: {
            if !profile.isSecondFactorOn {
                Text(text(.twoStepOffHint))
            }
        }
    }

    private func flipSecondFactor() {
        switch profile.secondFactorAction {
        case .enroll: sheet = .enroll
        case .disable: sheet = .disable
        }
    }

    @ViewBuilder private var editor: some View {
        SignupTextFieldView(
            kind: .nickname, title: text(.nickname), text: $profile.draftUsername, field: Field.nickname,
            focus: $focus, errors: profile.errors(for: .username), submitLabel: .done
        ) { focus = nil }
        MBTIPicker(
            title: text(.mbti), placeholder: text(.chooseMBTI), selection: $profile.draftMBTI,
            choices: profile.mbtiChoices, errors: profile.errors(for: .mbti))
    }

    /// Whether a device's logout waits for a yes (``ProfileModel/revokeCandidate``). Each of the
    /// alert's buttons answers the model itself, so the dismissal changes nothing here (clearing the
    /// question then would beat the "Log out" button's task to it).
    private var asksToRevoke: Binding<Bool> {
        Binding(get: { profile.revokeCandidate != nil }, set: { _ in })
    }

    /// "Log out?" for this device, "Log out “iPhone”?" for another.
    private var revokeTitle: String {
        guard let candidate = profile.revokeCandidate, !profile.revokeLogsOutHere else { return text(.logOutTitle) }
        return AccountUIStrings.logOutDeviceTitle(candidate.deviceName ?? text(.unknownDevice), profile.language)
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, profile.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Profile") { AccountPreviews.profile() }
#Preview("프로필") { AccountPreviews.profile(language: .ko) }
#Preview("Profile, passkeys and Apple") { AccountPreviews.profile(methods: [.passkeys, .apple]) }
#Preview("프로필, 패스키와 Apple") { AccountPreviews.profile(language: .ko, methods: [.passkeys, .apple]) }
#endif
#endif
