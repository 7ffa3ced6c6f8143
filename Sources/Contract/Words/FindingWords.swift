import TraceModel

/// Every finding's message and advice, phrased once in the contract's words: the engines and the replay
/// decide a finding (its code, severity, rule, records and the values it cites) and take its sentences from
/// here, one function per code, filed by the code's family (`FindingWords+Family.swift`).
package enum FindingWords {}

/// A finding's two sentences: what happened, and what to do about it.
package struct FindingSentences: Sendable, Equatable {
    /// What happened, with the records it cites.
    package let message: String
    /// What the app (or the SDK's team) should do.
    package let advice: String

    /// The two sentences.
    package init(message: String, advice: String) {
        self.message = message
        self.advice = advice
    }
}

extension Finding {
    /// Creates a finding phrased by `FindingWords`.
    package init(code: FindingCode, severity: Severity, rule: RuleID?, seqs: [Int], t: Int64, _ sentences: FindingSentences,
                 call: Int? = nil) {
        self.init(code: code, severity: severity, rule: rule, seqs: seqs, t: t, message: sentences.message,
                  advice: sentences.advice, call: call)
    }
}
