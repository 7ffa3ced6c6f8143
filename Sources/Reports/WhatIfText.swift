import Analysis
import Contract
import TraceModel

/// A what-if for a person: the edits, what the contract predicts would change, then the differences
/// in diff's order and words.
package enum WhatIfText {
    /// Renders the what-if.
    package static func render(_ w: WhatIfResult) -> String {
        var o = "Edits (\(w.edits.count))\n"
        if w.edits.isEmpty { o += "  none\n" }
        for (i, e) in w.edits.enumerated() {
            o += "  \(i + 1). \(terminalSafe(e.words))" + (w.changed[i] ? "" : WhatIfWords.changesNoRecord) + "\n"
        }
        o += "\n"
        guard let t = w.historyEndsAt else {
            return o + WhatIfWords.theEditsChangeNoRecordThe + TraceDiffText.render(w.diff)
        }
        o += WhatIfWords.historyEnds(formatDuration(t))
            + WhatIfWords.andFindingsRaisedByRouteReadings
        if w.resolved.isEmpty && w.added.isEmpty {
            o += WhatIfWords.theContractPredictsThatWithThis
        } else {
            for p in w.resolved { o += WhatIfWords.predictionLead + resolved(p) + "\n" }
            for p in w.added { o += WhatIfWords.predictionLead + added(p) + "\n" }
        }
        o += w.improves ? WhatIfWords.theChangeHelpsAProblemIs
            : w.added.isEmpty ? WhatIfWords.theChangeDoesNotHelpNo
            : WhatIfWords.addedProblems(w.added.count)
        o += "\n" + TraceDiffText.render(w.diff)
        return o
    }

    static func at(_ p: WhatIfProblem) -> String {
        (p.seq.map { "seq \($0) " } ?? "") + "at \(formatDuration(p.t))" + (p.rule.map { " [\($0)]" } ?? "")
    }

    static func resolved(_ p: WhatIfProblem) -> String {
        switch p.kind {
        case .call: "the call \(terminalSafe(p.subject)) (\(at(p))) takes effect: \(p.before ?? "?") → \(p.after ?? "?")."
        case .finding: WhatIfWords.findingGone(p.subject, at(p), p.before ?? "?")
        }
    }

    static func added(_ p: WhatIfProblem) -> String {
        switch p.kind {
        case .call: WhatIfWords.callStillIneffective(terminalSafe(p.subject), at(p), p.before ?? WhatIfWords.noSuchCall, p.after ?? "?")
        case .finding: "finding \(p.subject) (\(at(p)), \(p.after ?? "?")) is raised."
        }
    }
}

/// A what-if as JSON (schema `rtctrace.whatif/1`, documented in docs/json.md).
package enum WhatIfJSON {
    /// The schema id.
    package static let schema = "rtctrace.whatif/1"

    /// Renders the what-if as one object (no trailing newline); `diff` is diff's own object.
    package static func render(_ r: WhatIfResult) -> String {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.staticKey("schema"); w.string(schema)
        w.staticKey("improves"); w.bool(r.improves)
        w.staticKey("historyEndsAt"); w.int(r.historyEndsAt)
        w.staticKey("edits"); w.beginArray()
        for (i, e) in r.edits.enumerated() {
            w.beginObject()
            w.staticKey("edit"); w.string(e.name)
            w.staticKey("words"); w.string(e.words)
            w.staticKey("changed"); w.bool(r.changed[i])
            w.endObject()
        }
        w.endArray()
        w.staticKey("inserted"); w.beginArray()
        for s in r.inserted.sorted() { w.int(s) }
        w.endArray()
        w.staticKey("resolved"); problems(r.resolved, &w)
        w.staticKey("added"); problems(r.added, &w)
        w.staticKey("diff"); w.raw(TraceDiffJSON.render(r.diff))
        w.endObject()
        return w.string
    }

    static func problems(_ ps: [WhatIfProblem], _ w: inout JSONWriter) {
        w.beginArray()
        for p in ps {
            w.beginObject()
            w.staticKey("kind"); w.string(p.kind.rawValue)
            w.staticKey("subject"); w.string(p.subject)
            w.staticKey("rule"); w.string(p.rule?.rawValue)
            w.staticKey("seq"); w.int(p.seq)
            w.staticKey("t"); w.int(p.t)
            w.staticKey("before"); w.string(p.before)
            w.staticKey("after"); w.string(p.after)
            w.staticKey("cause"); w.string(p.cause?.rawValue)
            w.endObject()
        }
        w.endArray()
    }
}
