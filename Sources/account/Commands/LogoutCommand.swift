import AccountAPI
import AccountKit

/// `account logout [--all]`: ends the session on the server and forgets it here. Signed out
/// already, there is nothing to do: a note, and success. When the server cannot be told, the
/// session is still forgotten here, and the failure is reported (its exit status).
enum LogoutCommand {
    static func run(_ context: Context) async throws {
        let everywhere = context.invocation.has("all")
        let manager = context.sessionManager()
        guard case .signedIn = try await manager.restore() else {
            context.console.err(context.say("Not signed in; nothing to sign out of.", "로그인하지 않은 상태라 로그아웃할 것이 없어요."))
            if context.json { context.console.out(#"{"ok":true,"signed_in":false}"#) }
            return
        }
        do {
            try await manager.logOut(everywhere: everywhere)
        } catch {
            context.console.err(context.say(
                "Signed out on this device, but the server could not be told; the session ends there when it expires.",
                "이 기기에서는 로그아웃했지만 서버에 알리지 못했어요. 서버의 세션은 만료될 때 끝나요."))
            throw error
        }
        context.report(everywhere
            ? context.say("Signed out on every device.", "모든 기기에서 로그아웃했어요.")
            : context.say("Signed out.", "로그아웃했어요."))
    }
}
