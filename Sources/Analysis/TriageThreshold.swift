/// A `--fail-on` threshold: `TAG>N` (more than N traces have the tag) or `TAG>P%` (more than P
/// percent of the traces the tag's share is taken of, see `TriageSummary.denominator(for:)`).
import Contract
import TraceModel
package struct TriageThreshold: Sendable, Equatable, CustomStringConvertible {
    /// The tag counted.
    package var tag: TriageTag
    /// The limit: a count of traces, or a percentage.
    package var limit: Limit

    /// A count or a percentage.
    package enum Limit: Sendable, Equatable {
        /// More than this many traces.
        case traces(Int)
        /// More than this percentage (0–100).
        case percent(Double)
    }

    /// Why an expression is not a threshold.
    package struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The message, naming the expression.
        package var description: String
    }

    /// The expression as written back, e.g. `interruption-not-recovered>2%`.
    package var description: String {
        switch limit {
        case .traces(let n): "\(tag.rawValue)>\(n)"
        case .percent(let p): "\(tag.rawValue)>\(Self.number(p))%"
        }
    }

    /// Parses `TAG>N` or `TAG>P%`.
    package init(parsing expression: String) throws {
        let text = expression.filter { $0 != " " }
        guard let gt = text.firstIndex(of: ">") else {
            throw ParseError(description: TriageRowWords.notAThreshold(expression))
        }
        let name = String(text[..<gt])
        var value = String(text[text.index(after: gt)...])
        guard let tag = TriageTag(rawValue: name) else {
            throw ParseError(description: TriageRowWords.unknownThresholdTag(expression, tag: name))
        }
        self.tag = tag
        if value.hasSuffix("%") {
            value.removeLast()
            guard let p = Self.decimal(value), p >= 0, p <= 100 else {
                throw ParseError(description: TriageRowWords.notAPercentage(expression, value: value))
            }
            limit = .percent(p)
        } else {
            guard let n = Int(value), n >= 0 else {
                throw ParseError(description: TriageRowWords.notATraceCount(expression, value: value))
            }
            limit = .traces(n)
        }
    }

    /// Whether the summary crosses the threshold.
    package func isCrossed(by s: TriageSummary) -> Bool {
        switch limit {
        case .traces(let n): s.count(tag) > n
        case .percent(let p): s.denominator(for: tag) > 0 && s.share(tag) * 100 > p
        }
    }

    /// What the summary has against the threshold, e.g. `3 of 998 readable traces (0.3%)`.
    package func actual(in s: TriageSummary) -> String {
        let d = s.denominator(for: tag)
        let of = tag.describesInput ? "\(d) input\(d == 1 ? "" : "s")" : "\(d) readable trace\(d == 1 ? "" : "s")"
        return "\(s.count(tag)) of \(of) (\(fixed(s.share(tag) * 100, 1))%) have \(tag.rawValue)"
    }

    /// A plain decimal: digits with at most one point, nothing else (no exponent, no sign, no `inf`).
    static func decimal(_ s: String) -> Double? {
        guard !s.isEmpty, s.filter({ $0 == "." }).count <= 1, s != ".",
              s.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }) else { return nil }
        return Double(s)
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }
}
