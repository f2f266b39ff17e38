#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The one text field of the account screens: a title, the field its ``SignupFieldKind`` sets
/// up, the messages under it, a focus binding and a submit action.
///
/// A number pad has no return key: while such a field has focus, the keyboard's toolbar offers
/// `keyboardDoneTitle`, which runs the submit action. Inside the field an example of what it takes
/// shows (``SignupFieldKind/placeholder(_:)``), not its title again. Both are worded in the
/// environment's locale when not given (``AccountRootView`` sets it to the client's language).
///
/// ```swift
/// SignupTextFieldView(kind: .email, title: "Email", text: $form.email, field: .email,
///                     focus: $focus, errors: form.errors(for: .email)) { focus = .password }
/// ```
public struct SignupTextFieldView<Field: Hashable>: View {
    let kind: SignupFieldKind
    let title: String
    @Binding var text: String
    let field: Field
    let focus: FocusState<Field?>.Binding
    let errors: [String]
    let submitLabel: SubmitLabel
    let keyboardDoneTitle: String?
    let placeholder: String?
    let onSubmit: () -> Void
    @Environment(\.locale) private var locale

    /// - Parameters:
    ///   - kind: what the field asks for.
    ///   - title: the label above the field, also its VoiceOver label.
    ///   - text: the model's property.
    ///   - field: this field's value in the screen's focus state.
    ///   - focus: the screen's focus state.
    ///   - errors: the messages to show under the field (the model's, already localized).
    ///   - submitLabel: the return key's name.
    ///   - keyboardDoneTitle: the keyboard toolbar's button over a number pad; "Done" in the
    ///     environment's language when `nil`.
    ///   - placeholder: the text inside the empty field; an example for its kind when `nil`.
    ///   - onSubmit: what the return key (or that button) does: next field, or the screen's action.
    public init(
        kind: SignupFieldKind, title: String, text: Binding<String>, field: Field,
        focus: FocusState<Field?>.Binding, errors: [String] = [], submitLabel: SubmitLabel = .next,
        keyboardDoneTitle: String? = nil, placeholder: String? = nil, onSubmit: @escaping () -> Void
    ) {
        self.kind = kind
        self.title = title
        self._text = text
        self.field = field
        self.focus = focus
        self.errors = errors
        self.submitLabel = submitLabel
        self.keyboardDoneTitle = keyboardDoneTitle
        self.placeholder = placeholder
        self.onSubmit = onSubmit
    }

    /// The title, the field and its messages.
    public var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(title)
                .font(.subheadline)
                .foregroundStyle(.secondary)
                .accessibilityHidden(true)
            input
                .textFieldStyle(.roundedBorder)
                .autocorrectionDisabled()
                .focused(focus, equals: field)
                .submitLabel(submitLabel)
                .onSubmit(onSubmit)
                .accessibilityLabel(title)
            FieldErrorsView(errors: errors)
        }
        .toolbar {
            if kind.usesNumberPad && focus.wrappedValue == field {
                ToolbarItemGroup(placement: .keyboard) {
                    Spacer()
                    Button(keyboardDoneTitle ?? AccountUIStrings.text(.done, language), action: onSubmit)
                }
            }
        }
    }

    @ViewBuilder private var input: some View {
        let prompt = placeholder ?? kind.placeholder(language)
        if kind.isSecure {
            SecureField(prompt, text: $text)
                .platformInputTraits(kind)
        } else {
            TextField(prompt, text: $text)
                .platformInputTraits(kind)
        }
    }

    /// The environment's language among the screens' own; English for any other.
    private var language: Language {
        locale.language.languageCode.flatMap { Language(rawValue: $0.identifier) } ?? .en
    }
}

extension View {
    /// Keyboard, AutoFill type and capitalization on iOS and Mac Catalyst; nothing on macOS.
    @ViewBuilder func platformInputTraits(_ kind: SignupFieldKind) -> some View {
        #if os(iOS)
        self
            .keyboardType(kind.keyboard)
            .textContentType(kind.contentType)
            .textInputAutocapitalization(.never)
        #else
        self
        #endif
    }

    /// Scrolls `proxy` so the focused field sits in view, above the keyboard SwiftUI avoids by
    /// itself (no keyboard-height arithmetic: it is wrong for the iPad's floating keyboard, Stage
    /// Manager windows and sheets).
    func scrollsToFocus<Field: Hashable>(_ focus: Field?, with proxy: ScrollViewProxy) -> some View {
        onChange(of: focus) { _, field in
            guard let field else { return }
            withAnimation { proxy.scrollTo(field, anchor: .center) }
        }
    }
}
#endif
