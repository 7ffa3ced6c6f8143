import Analysis
import Contract
import TraceModel

/// `triage --whatif`: each row's change as JSON, and what the edits would resolve across the fleet, as text and JSON.
package enum TriageWhatIfReport {
    /// A row's change as a JSON object.
    package static func json(_ x: TriageWhatIf, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("improves"); w.bool(x.improves)
        w.key("historyEndsAt"); w.int(x.historyEndsAt)
        w.key("callsTakingEffect"); w.int(x.callsTakingEffect)
        w.key("callsNotTakingEffect"); w.int(x.callsNotTakingEffect)
        w.key("findingsRemoved"); w.int(x.findingsRemoved)
        w.key("findingsAdded"); w.int(x.findingsAdded)
        w.key("divergencesRemoved"); w.int(x.divergencesRemoved)
        w.key("divergencesAdded"); w.int(x.divergencesAdded)
        w.key("resolvedTags"); w.beginArray(); for t in x.resolvedTags { w.string(t.rawValue) }; w.endArray()
        w.key("remainingTags"); w.beginArray(); for t in x.remainingTags { w.string(t.rawValue) }; w.endArray()
        w.key("error"); w.string(x.error)
        w.endObject()
    }

    /// The fleet's tally as a JSON object.
    package static func json(_ t: TriageWhatIfTally, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("traces"); w.int(t.traces)
        w.key("improved"); w.int(t.improved)
        w.key("notApplied"); w.int(t.notApplied)
        w.key("byTag"); w.beginArray()
        for (tag, e) in ranked(t) {
            w.beginObject()
            w.key("tag"); w.string(tag.rawValue)
            w.key("traces"); w.int(e.had)
            w.key("resolved"); w.int(e.resolved)
            w.endObject()
        }
        w.endArray()
        w.key("bySDK"); w.beginArray()
        for (sdk, e) in t.bySDK.sorted(by: { $0.key < $1.key }) {
            w.beginObject()
            w.key("sdk"); w.string(sdk)
            w.key("traces"); w.int(e.traces)
            w.key("improved"); w.int(e.improved)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The tags by traces resolved, then traces that have them, then name.
    static func ranked(_ t: TriageWhatIfTally) -> [(TriageTag, (had: Int, resolved: Int))] {
        t.byTag.sorted { ($1.value.resolved, $1.value.had, $0.key.rawValue) < ($0.value.resolved, $0.value.had, $1.key.rawValue) }
            .map { ($0.key, $0.value) }
    }

    /// The text section: per tag the fix resolves, how many of its traces, and per SDK version how many improve.
    package static func render(_ t: TriageWhatIfTally, all: Bool) -> String {
        guard t.traces > 0 else { return "" }
        var o = TriageWords.whatIfHeading(t.improved, t.traces)
        o += t.notApplied > 0 ? TriageWords.editsNotPlaced(t.notApplied) : ")\n"
        let resolving = ranked(t).filter { $0.1.resolved > 0 }
        if resolving.isEmpty { o += TriageWords.noTagIsClearedFromAny }
        for (tag, e) in all ? resolving[...] : resolving.prefix(10) {
            o += "  resolves \(e.resolved) of \(e.had) `\(tag.rawValue)` trace\(e.had == 1 ? "" : "s"); \(e.had - e.resolved) remain\n"
        }
        o += TriageWords.bySDKVersionLine + t.bySDK.sorted { $0.key < $1.key }.map { "\(terminalSafe($0.key)) \($0.value.improved) of \($0.value.traces) improve" }
            .joined(separator: ", ") + "\n"
        return o
    }
}
