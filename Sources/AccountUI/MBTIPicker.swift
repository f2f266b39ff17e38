#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The MBTI type: its label ("MBTI") beside a menu of the types the server accepts, showing the
/// choice or, until one is made, a placeholder (nothing is chosen for the user); messages under it.
struct MBTIPicker: View {
    let title: String
    let placeholder: String
    @Binding var selection: MBTI?
    let choices: [MBTI]
    let errors: [String]

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            LabeledContent {
                Menu {
                    ForEach(choices, id: \.self) { type in
                        Button {
                            selection = type
                        } label: {
                            if selection == type {
                                Label(type.rawValue, systemImage: "checkmark")
                            } else {
                                Text(type.rawValue)
                            }
                        }
                    }
                } label: {
                    HStack(spacing: 4) {
                        Text(selection?.rawValue ?? placeholder)
                            .foregroundStyle(selection == nil ? .secondary : .primary)
                        Image(systemName: "chevron.up.chevron.down")
                            .font(.footnote)
                            .foregroundStyle(.secondary)
                    }
                }
                .accessibilityLabel(title)
                .accessibilityValue(selection?.rawValue ?? placeholder)
            } label: {
                Text(title)
            }
            FieldErrorsView(errors: errors)
        }
    }
}
#endif
