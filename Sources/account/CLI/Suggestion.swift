/// The nearest of some names to a mistyped one, for "did you mean …?".
enum Suggestion {
    /// The candidate closest to `typed`: one it starts (`sess` → `sessions`), or one within two
    /// edits (one for short names), a swap of neighbours counting as one edit; `nil` when none is close.
    static func nearest(to typed: String, in candidates: some Sequence<String>) -> String? {
        let typed = typed.lowercased()
        guard !typed.isEmpty else { return nil }
        let sorted = candidates.sorted()
        if typed.count >= 3, let completion = sorted.first(where: { $0.hasPrefix(typed) }) { return completion }
        let limit = typed.count <= 4 ? 1 : 2
        let scored = sorted.map { ($0, distance(typed, $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edits (insert, delete, replace, swap of two neighbours) that turn `a` into `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
