import SystemLayer
/// JUnit XML for CI systems: one testsuite, one testcase per trace, each failure with its message.
import Analysis
package enum JUnitXML {
    /// Escapes text for XML content and attribute values; drops characters XML 1.0 forbids.
    package static func escape(_ s: String) -> String {
        var o = ""
        o.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            case "'": o += "&apos;"
            case "\t", "\n", "\r": o.unicodeScalars.append(u)
            case _ where PathName.rawByte(u) != nil:
                // A byte of a file name that is not UTF-8 (SystemLayer's PathName), shown as \xNN.
                o += PathName.displayed(String(u))
            default:
                let v = u.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) { o += "\u{FFFD}" } else { o.unicodeScalars.append(u) }
            }
        }
        return o
    }

    /// A case's name: a trace's file name without its endings; a golden session (several parts) is named
    /// once, by the folder that holds its parts when no other case is in it, else by its session id.
    static func caseName(_ c: CheckOutcome, among all: [CheckOutcome]) -> String {
        func folder(_ p: String) -> String? { p.lastIndex(of: "/").map { String(p[..<$0]) } }
        func lastComponent(_ p: String) -> String { p.split(separator: "/").last.map(String.init) ?? p }
        let stem = lastComponent(GoldenCheck.stem(c.file))
        guard c.parts.count > 1 else { return stem }
        let folders = Set(c.parts.map(folder))
        if folders.count == 1, let only = folders.first, let dir = only, !lastComponent(dir).isEmpty, lastComponent(dir) != ".",
           !all.contains(where: { $0.file != c.file && $0.parts.contains { folder($0) == dir } }) {
            return lastComponent(dir)
        }
        if let session = c.session { return "session \(session)" }
        return stem + CheckWords.sessionCaseSuffix(c.parts.count - 1)
    }

    /// Renders outcomes as a JUnit document.
    package static func render(_ outcomes: [CheckOutcome], suite: String = "rtctrace check") -> String {
        let failures = outcomes.filter { !$0.passed }.count
        var o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        o += "<testsuites name=\"\(escape(suite))\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        o += "  <testsuite name=\"\(escape(suite))\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for c in outcomes {
            let name = caseName(c, among: outcomes)
            o += "    <testcase classname=\"golden\" name=\"\(escape(name))\" file=\"\(escape(c.file))\""
            if c.passed {
                o += "/>\n"
                continue
            }
            o += ">\n"
            let first = c.failures.first?.split(separator: "\n").first.map(String.init) ?? "failed"
            o += "      <failure message=\"\(escape(first))\" type=\"expectation\">\(escape(c.failures.joined(separator: "\n")))</failure>\n"
            o += "    </testcase>\n"
        }
        o += "  </testsuite>\n</testsuites>\n"
        return o
    }
}
