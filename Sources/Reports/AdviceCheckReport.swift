import Analysis
import Contract
import TraceModel

/// The advice of each item checked by replay (`explain --verify-advice`), as text and as JSON.
package enum AdviceCheckReport {
    /// One line per item: what it is, and what replaying its advice showed.
    package static func render(_ checks: [AdviceCheck], _ w: LayerWords) -> String {
        var o = AdviceCheckWords.adviceCheckedByReplayingTheTrace
        if checks.isEmpty { return o + AdviceCheckWords.noCallThatDidNotTake }
        for c in checks {
            o += "  \(c.kind == .call ? "call" : "finding") \(terminalSafe(c.subject))" + (c.seq.map { ", seq \($0)" } ?? "") + " at \(formatDuration(c.t))\n"
            o += "      " + words(c, w) + "\n"
        }
        return o
    }

    /// What the check showed, in one sentence.
    package static func words(_ c: AdviceCheck, _ w: LayerWords) -> String {
        let effect = c.kind == .call ? AdviceCheckWords.theCallTakesEffect : AdviceCheckWords.findingGone(c.subject)
        let edits = c.edits.map(\.words).joined(separator: " ")
        let still = [c.rule.map { "\($0.rawValue) (\($0.title))" }, c.cause.map { $0.reason(w) }].compactMap { $0 }.joined(separator: ", ")
        switch c.verdict {
        case .verified: return AdviceCheckWords.verified(effect, terminalSafe(edits))
        case .alternativeVerified:
            return AdviceCheckWords.alternativeWorks(terminalSafe(edits), effect)
        case .doesNotApply:
            return AdviceCheckWords.thisAdviceDoesNotChangeThe + (still.isEmpty ? "" : ": \(still)") + AdviceCheckWords.itDoesNotApplyToThis
        case .changedNotResolved:
            return AdviceCheckWords.outcomeChangesCallStillIneffective(c.after ?? "?") + (still.isEmpty ? "" : ": \(still)") + ")"
        case .cannotPlace: return "not checked: \(c.why ?? "the advice's edits cannot be placed in this trace")"
        case .notVerifiable: return AdviceCheckWords.notVerifiable(c.why ?? AdviceCheckWords.theAdviceCannotBeExpressedAs)
        }
    }

    /// The checks as a JSON array.
    package static func json(_ checks: [AdviceCheck]) -> String {
        var w = JSONWriter(reserving: 1024)
        w.beginArray()
        for c in checks {
            w.beginObject()
            w.staticKey("kind"); w.string(c.kind.rawValue)
            w.staticKey("subject"); w.string(c.subject)
            w.staticKey("seq"); w.int(c.seq)
            w.staticKey("t"); w.int(c.t)
            w.staticKey("verdict"); w.string(c.verdict.rawValue)
            w.staticKey("edits"); w.beginArray()
            for e in c.edits { w.string(e.words) }
            w.endArray()
            w.staticKey("rule"); w.string(c.rule?.rawValue)
            w.staticKey("after"); w.string(c.after)
            w.staticKey("cause"); w.string(c.cause?.rawValue)
            w.staticKey("why"); w.string(c.why)
            w.endObject()
        }
        w.endArray()
        return w.string
    }
}
