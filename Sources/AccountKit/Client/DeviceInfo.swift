import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The device a request comes from, as the `User-Agent` names it.
struct DeviceInfo: Sendable, Equatable {
    /// The hardware model (`iPhone15,2`, `MacBookPro18,3`) or, where there is none, the machine (`x86_64`).
    var model: String
    /// `iOS`, `macOS`, `Linux`, …
    var system: String
    /// `17.4`, `15.1`, or the kernel's version on Linux.
    var systemVersion: String

    /// This device.
    static var current: DeviceInfo {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let number = version.patchVersion == 0
            ? "\(version.majorVersion).\(version.minorVersion)"
            : "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        return DeviceInfo(model: hardwareModel(), system: systemName, systemVersion: number)
    }

    private static var systemName: String {
        #if os(iOS)
        // A Mac runs iPad apps too (Catalyst, or "Designed for iPad"); its version is the Mac's.
        ProcessInfo.processInfo.isMacCatalystApp || ProcessInfo.processInfo.isiOSAppOnMac ? "macOS" : "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(Linux)
        "Linux"
        #elseif os(Windows)
        "Windows"
        #else
        "unknown"
        #endif
    }

    private static func hardwareModel() -> String {
        // The simulator's machine is the Mac's CPU; it names the simulated model here.
        if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"], !simulated.isEmpty {
            return simulated
        }
        #if os(macOS) || targetEnvironment(macCatalyst)
        if let model = sysctlString("hw.model") { return model }
        #endif
        return machine()
    }

    /// `uname`'s machine: the model identifier on iPhone and iPad, the CPU elsewhere.
    private static func machine() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    #if os(macOS) || targetEnvironment(macCatalyst)
    private static func sysctlString(_ name: String) -> String? {
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    #endif
}
