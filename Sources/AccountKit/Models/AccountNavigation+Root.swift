import AccountAPI

extension AccountNavigation {
    /// Whether the stack goes back to its root when the root changes from `old` to `new`: when
    /// another root shows (signed in, signed out, another account), never when only the signed-in
    /// user's details changed. A newer copy of the user (the profile reloaded, a second factor
    /// turned on) must not drop the screen above the profile, such as the recovery codes the user
    /// is still writing down.
    public static func popsToRoot(from old: RootScreen, to new: RootScreen) -> Bool {
        switch (old, new) {
        case (.profile(let before), .profile(let after)): before.id != after.id
        case (.waiting, .waiting), (.logIn, .logIn): false
        default: true
        }
    }
}
