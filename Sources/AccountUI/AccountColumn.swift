#if canImport(SwiftUI)
import SwiftUI

extension View {
    /// The width rule of the account screens: the full compact width on iPhone, a centered
    /// 400-point column on iPad and Mac.
    func accountColumn() -> some View {
        frame(maxWidth: 400)
            .frame(maxWidth: .infinity)
    }
}
#endif
