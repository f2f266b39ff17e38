#if canImport(SwiftUI)
import AccountAPI
import SwiftUI

/// A menu of the MBTI types the server accepts, with the messages under it.
struct MBTIPicker: View {
    let title: String
    let placeholder: String
    @Binding var selection: MBTI?
    let choices: [MBTI]
    let errors: [String]

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Picker(selection: $selection) {
                Text(placeholder).tag(MBTI?.none)
                ForEach(choices, id: \.self) { type in
                    Text(type.rawValue).tag(MBTI?.some(type))
                }
            } label: {
                Text(title)
            }
            .pickerStyle(.menu)
            .accessibilityLabel(title)
            .accessibilityHint(errors.joined(separator: " "))
            FieldErrorsView(errors: errors)
        }
    }
}
#endif
