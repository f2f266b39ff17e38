#if canImport(SwiftUI)
import SwiftUI
#if canImport(CoreImage)
import CoreImage
import CoreImage.CIFilterBuiltins
#endif

/// A QR code of a text (an `otpauth://` URI), drawn with Core Image's QR generator and scaled
/// without smoothing, so every module stays a sharp square at any size; dark on a white card with
/// a quiet zone, so a camera reads it in dark mode too.
///
/// VoiceOver reads it as one image with `label` (someone who cannot see it uses the key beside it).
///
/// ```swift
/// QRCodeView(text: enrollment.otpauthURI, label: "QR code for your authenticator app")
///     .frame(width: 200, height: 200)
/// ```
struct QRCodeView: View {
    /// What the code holds.
    let text: String
    /// What VoiceOver says for it.
    let label: String

    var body: some View {
        Group {
            if let image = Self.image(of: text) {
                Image(decorative: image, scale: 1)
                    .interpolation(.none)
                    .resizable()
                    .scaledToFit()
            } else {
                Image(systemName: "qrcode")
                    .resizable()
                    .scaledToFit()
                    .foregroundStyle(.secondary)
            }
        }
        .padding(12)
        .background(Color.white, in: RoundedRectangle(cornerRadius: 8))
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(label)
        .accessibilityAddTraits(.isImage)
    }

    /// The QR code of `text`, one pixel a module (error correction M: an `otpauth://` URI fits
    /// in a small code that survives a glare), or `nil` when Core Image cannot make one.
    static func image(of text: String) -> CGImage? {
        #if canImport(CoreImage)
        let filter = CIFilter.qrCodeGenerator()
        filter.message = Data(text.utf8)
        filter.correctionLevel = "M"
        guard let output = filter.outputImage else { return nil }
        return context.createCGImage(output, from: output.extent)
        #else
        return nil
        #endif
    }

    #if canImport(CoreImage)
    private static let context = CIContext(options: [.useSoftwareRenderer: false])
    #endif
}
#endif
