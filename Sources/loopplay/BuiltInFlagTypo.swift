/// swift-argument-parser suggests only declared options for an unknown one, never its own `--help`
/// and `--version`: `--hepl` got "Did you mean '--ext'?". This puts them back in the running.
enum BuiltInFlagTypo {
    private static let builtIns = ["--help", "--version"]

    /// `text` ("Unknown option '--hepl'. Did you mean '--ext'?") with the suggestion replaced by the
    /// built-in flag it is closer to (at most two edits away), or `text` as it was.
    static func corrected(_ text: String) -> String {
        let prefix = "Unknown option '"
        guard text.hasPrefix(prefix), let end = text.dropFirst(prefix.count).firstIndex(of: "'") else { return text }
        let typed = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<end])
        let suggested = text[end...].split(separator: "'").dropFirst().first.map(String.init)
        guard let closest = builtIns.min(by: { editDistance(typed, $0) < editDistance(typed, $1) }),
              editDistance(typed, closest) <= 2,
              suggested.map({ editDistance(typed, closest) < editDistance(typed, $0) }) ?? true else { return text }
        return "\(prefix)\(typed)'. Did you mean '\(closest)'?"
    }

    /// Levenshtein distance with adjacent transpositions counting one (`hepl` → `help`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
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
