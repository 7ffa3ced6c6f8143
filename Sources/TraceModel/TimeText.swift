/// Times in one format everywhere in text output: the engines' messages, the reports and the tools.
/// A duration or a trace time as text, `1h 02m 03.456s` style.
public func formatDuration(_ ms: Int64) -> String {
    // A trace whose t goes backwards gives negative spans; never trap on them.
    if ms < 0 { return "-" + formatDuration(ms == .min ? .max : -ms) }
    let h = ms / 3_600_000, m = (ms / 60000) % 60, s = (ms / 1000) % 60, frac = ms % 1000
    let sec = "\(s).\(String(repeating: "0", count: 3 - String(frac).count))\(frac)s"
    if h > 0 { return "\(h)h \(m < 10 ? "0" : "")\(m)m \(s < 10 ? "0" : "")\(sec)" }
    if m > 0 { return "\(m)m \(s < 10 ? "0" : "")\(sec)" }
    return sec
}

