import TraceModel

/// How serious a finding is.
package enum Severity: String, Sendable, Comparable, CaseIterable {
    case info, warning, error

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
    package static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// A diagnostic: a stable code, the rule it comes from, the records involved, and advice in the layer's words.
/// A value that does not change once raised: a finding revised later (X3's explanation of a divergence) is a
/// new finding that replaces the kept one in the result.
@usableFromInline package struct Finding: Equatable, Sendable {
    /// Stable code, e.g. `route.ineffective`.
    package let code: FindingCode
    /// How serious it is.
    package let severity: Severity
    /// The contract rule, e.g. `R4`, when one applies.
    package let rule: RuleID?
    /// The seqs of the records involved, the deciding one first.
    package let seqs: [Int]
    /// When it was raised (ms since the trace started).
    package let t: Int64
    /// What happened.
    package var message: String { text.message }
    /// What the app (or the engineer) should do.
    package var advice: String { text.advice }
    /// The call whose verdict this finding explains (a route call's `route.ineffective`, a layer call's
    /// finding), set by the engine that decides the verdict: the replay links the two by it.
    package let call: Int?
    /// The message and advice, phrased or to be phrased when read.
    private let text: FindingText

    /// Creates a finding.
    package init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, message: String, advice: String,
                call: Int? = nil) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.text = .phrased(message: message, advice: advice)
        self.call = call
    }

    /// Creates a finding whose message and advice are phrased only when read, each on its own: for the
    /// findings a trace can raise at a high rate, most of which a result only counts (past its cap), so that
    /// phrasing is report work, done for the findings a report shows. `phrase` must give the same text every
    /// time.
    package init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, call: Int? = nil,
                phrase: @escaping @Sendable (FindingProse) -> String) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.text = .later(phrase)
        self.call = call
    }

    private init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, call: Int?, text: FindingText) {
        self.code = code
        self.severity = severity
        self.rule = rule
        self.seqs = seqs
        self.t = t
        self.call = call
        self.text = text
    }

    /// The same finding, raised at `t` instead (a check held until its kind is seen is raised then).
    package func raised(at t: Int64) -> Finding {
        Finding(code: code, severity: severity, rule: rule, seqs: seqs, t: t, call: call, text: text)
    }

    /// The same finding with other words (tests compare findings without their prose).
    package func phrased(message: String, advice: String) -> Finding {
        Finding(code: code, severity: severity, rule: rule, seqs: seqs, t: t, call: call, text: .phrased(message: message, advice: advice))
    }

    @usableFromInline package static func == (a: Finding, b: Finding) -> Bool {
        a.code == b.code && a.severity == b.severity && a.rule == b.rule && a.seqs == b.seqs && a.t == b.t
            && a.call == b.call && a.message == b.message && a.advice == b.advice
    }
}

/// The two parts of a finding's prose.
package enum FindingProse: Sendable {
    case message, advice
}

/// A finding's words: phrased, or a function that phrases each part when it is read.
private enum FindingText: Sendable {
    case phrased(message: String, advice: String)
    case later(@Sendable (FindingProse) -> String)

    var message: String {
        switch self {
        case .phrased(let message, _): message
        case .later(let phrase): phrase(.message)
        }
    }

    var advice: String {
        switch self {
        case .phrased(_, let advice): advice
        case .later(let phrase): phrase(.advice)
        }
    }
}
