import Foundation

extension UserAgent {
    /// The app's `User-Agent`: its name, version and build from `info` (a bundle's Info.plist), and
    /// this device's model and system.
    static func app(info: [String: Any], processName: String, device: DeviceInfo) -> UserAgent {
        let name = [info["CFBundleDisplayName"], info["CFBundleName"], info["CFBundleExecutable"]]
            .compactMap { $0 as? String }.first { !$0.isEmpty } ?? processName
        let build = (info["CFBundleVersion"] as? String).map { "build \($0)" }
        return UserAgent(
            name: name, version: info["CFBundleShortVersionString"] as? String,
            details: [device.model, "\(device.system) \(device.systemVersion)"] + (build.map { [$0] } ?? []))
    }
}
