import AccountAPI
import AccountKit

/// `account logout [--all]`: ends the session on the server (best effort) and forgets it here.
/// Signed out already, there is nothing to do: a note, and success.
enum LogoutCommand {
    static func run(_ context: Context) async throws {
        let everywhere = context.invocation.has("all")
        let manager = context.sessionManager()
        guard case .signedIn = try await manager.restore() else {
            context.console.err(context.say("Not signed in; nothing to sign out of.", "로그인하지 않은 상태라 로그아웃할 것이 없어요."))
            if context.json { context.console.out(#"{"ok":true,"signed_in":false}"#) }
            return
        }
        await manager.logOut(scope: everywhere ? .global : .local)
        context.report(everywhere
            ? context.say("Signed out on every device.", "모든 기기에서 로그아웃했어요.")
            : context.say("Signed out.", "로그아웃했어요."))
    }
}
