/// A readable line diff of two texts (longest common subsequence, unified style with context).
package enum LineDiff {
    /// Unified-style diff: `-` lines only in `old`, `+` lines only in `new`, two lines of context.
    package static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 2) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard a.count * b.count <= 25_000_000 else {
            return ExplainWords.tooLargeToDiff(oldName, newName, a.count, b.count)
        }
        // LCS table, then walk it to an edit script.
        var lcs = [[Int32]](repeating: [Int32](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var ops: [(Character, String)] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                ops.append((" ", a[i])); i += 1; j += 1
            } else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                ops.append(("-", a[i])); i += 1
            } else {
                ops.append(("+", b[j])); j += 1
            }
        }
        var keep = [Bool](repeating: false, count: ops.count)
        for (k, op) in ops.enumerated() where op.0 != " " {
            for m in max(0, k - context)...min(ops.count - 1, k + context) { keep[m] = true }
        }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var skipping = false
        for (k, op) in ops.enumerated() {
            if keep[k] {
                out += "\(op.0) \(op.1)\n"
                skipping = false
            } else if !skipping {
                out += "  …\n"
                skipping = true
            }
        }
        return out
    }
}
