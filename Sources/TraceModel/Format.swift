import SystemLayer
/// Text formatting shared by every renderer: durations, fixed decimals, terminal-safe strings.
/// A number with a fixed count of decimals, without Foundation.
public func fixed(_ v: Double, _ decimals: Int) -> String {
    guard v.isFinite else { return "-" }
    var p = 1.0
    for _ in 0..<decimals { p *= 10 }
    // Beyond Int64 (a hostile trace's 1e300) the plain description is exact enough and cannot trap.
    guard abs(v) * p < 9e18 else { return "\(v)" }
    let n = Int64((abs(v) * p).rounded())
    let whole = n / Int64(p), frac = n % Int64(p)
    var f = String(frac)
    while f.count < decimals { f = "0" + f }
    return (v < 0 && n != 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + f : "")
}

/// Items in prose: "a", "a and b", "a, b and c".
public func proseList(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
}

/// Removes control characters and escape sequences from trace text before it reaches a terminal.
public func terminalSafe(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
        switch scalar.value {
        case 0x0A: out.unicodeScalars.append(scalar)
        case _ where PathName.rawByte(scalar) != nil:
            // A byte of a file name that is not UTF-8 (SystemLayer's PathName), shown as \xNN.
            out += PathName.displayed(String(scalar))
        case 0..<0x20, 0x7F, 0x80..<0xA0: out.unicodeScalars.append("\u{FFFD}")
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}


extension String {
    /// The string padded with spaces to `width` (at least one space after it).
    public func padded(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
