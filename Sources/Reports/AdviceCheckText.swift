import Analysis
import Contract
import TraceModel

/// The advice of each item checked by replay (`explain --verify-advice`), as text and as JSON.
package enum AdviceCheckText {
    /// One line per item: what it is, and what replaying its advice showed.
    package static func render(_ checks: [AdviceCheck], _ w: LayerWords) -> String {
        var o = "\nAdvice, checked by replaying the trace with it (the contract's prediction; see docs/whatif.md)\n"
        if checks.isEmpty { return o + "  no call that did not take effect and no finding above info: no advice to check\n" }
        for c in checks {
            o += "  \(c.kind == .call ? "call" : "finding") \(terminalSafe(c.subject))" + (c.seq.map { ", seq \($0)" } ?? "") + " at \(formatDuration(c.t))\n"
            o += "      " + words(c, w) + "\n"
        }
        return o
    }

    /// What the check showed, in one sentence.
    package static func words(_ c: AdviceCheck, _ w: LayerWords) -> String {
        let effect = c.kind == .call ? "the call takes effect" : "\(c.subject) is no longer raised"
        let edits = c.edits.map(\.words).joined(separator: " ")
        let still = [c.rule.map { "\($0.rawValue) (\($0.title))" }, c.cause.map { Wording.cause($0, w) }].compactMap { $0 }.joined(separator: ", ")
        switch c.verdict {
        case .verified: return "verified: following this advice, \(effect) (\(terminalSafe(edits)))"
        case .alternativeVerified:
            return "the advice given does not change the outcome here; the catalogue's alternative does: following \(terminalSafe(edits)), \(effect)"
        case .doesNotApply:
            return "this advice does not change the outcome here" + (still.isEmpty ? "" : ": \(still)") + "; it does not apply to this trace"
        case .changedNotResolved:
            return "this advice changes the outcome here, but the call still does not take effect (\(c.after ?? "?")" + (still.isEmpty ? "" : ": \(still)") + ")"
        case .cannotPlace: return "not checked: \(c.why ?? "the advice's edits cannot be placed in this trace")"
        case .notVerifiable: return "not verifiable by replay: \(c.why ?? "the advice cannot be expressed as edits")"
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
            w.staticKey("seq"); if let s = c.seq { w.int(s) } else { w.null() }
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
