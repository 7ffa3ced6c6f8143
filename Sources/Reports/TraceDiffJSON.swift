import Analysis
import TraceModel

/// A trace diff as JSON (schema `rtctrace.diff/2`, documented in docs/json.md).
package enum TraceDiffJSON {
    /// The schema id.
    package static let schema = "rtctrace.diff/2"

    /// Renders the diff as one object (no trailing newline).
    package static func render(_ d: TraceDiff) -> String {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.staticKey("schema"); w.string(schema)
        w.staticKey("same"); w.bool(d.same)
        w.staticKey("toleranceMs"); w.int(d.toleranceMs)
        w.staticKey("paired"); w.int(d.paired)
        w.staticKey("changedCalls"); w.int(d.changedCalls)
        w.staticKey("offsetMs"); w.int(d.offsetMs)
        w.staticKey("a"); side(d.a, &w)
        w.staticKey("b"); side(d.b, &w)
        w.staticKey("differenceCount"); w.int(d.differenceCount)
        w.staticKey("differences"); w.beginArray()
        for x in d.differences { difference(x, &w) }
        w.endArray()
        w.endObject()
        return w.string
    }

    static func side(_ s: TraceDiff.Side, _ w: inout JSONWriter) {
        w.beginObject()
        w.staticKey("file"); w.path(s.file)
        w.staticKey("layer"); w.string(s.layer.rawValue)
        w.staticKey("records"); w.int(s.records)
        w.staticKey("unpairedCount"); w.int(s.unpairedCount)
        w.staticKey("unpaired"); w.beginArray()
        for r in s.unpaired { record(r, &w) }
        w.endArray()
        w.endObject()
    }

    static func record(_ r: DiffRecord?, _ w: inout JSONWriter) {
        guard let r else { return w.null() }
        w.beginObject()
        w.staticKey("seq"); w.int(r.seq)
        w.staticKey("t"); w.int(r.t)
        w.staticKey("type"); w.string(r.type)
        w.endObject()
    }

    static func difference(_ x: Difference, _ w: inout JSONWriter) {
        w.beginObject()
        w.staticKey("kind"); w.string(x.kind.rawValue)
        w.staticKey("subject"); w.string(x.subject)
        w.staticKey("rule"); w.string(x.rule?.rawValue)
        w.staticKey("t"); w.int(x.t)
        w.staticKey("until"); w.int(x.until)
        for (name, r, value, cause, steps, missing) in [("a", x.a, x.aValue, x.aCause, x.aSteps, x.aMissing), ("b", x.b, x.bValue, x.bCause, x.bSteps, x.bMissing)] {
            w.key(name); w.beginObject()
            w.staticKey("record"); record(r, &w)
            w.staticKey("value"); w.string(value)
            w.staticKey("cause"); w.string(cause?.rawValue)
            w.staticKey("then"); w.beginArray()
            for step in steps {
                w.beginObject()
                w.staticKey("t"); w.int(step.t)
                w.staticKey("value"); w.string(step.value)
                w.endObject()
            }
            w.endArray()
            // Only where that side's records were lost (an addition: other differences are written as before).
            if let m = missing {
                w.staticKey("missing"); w.beginObject()
                w.staticKey("cause"); w.string(m.cause.rawValue)
                w.staticKey("fromSeq"); w.int(m.fromSeq)
                w.staticKey("toSeq"); w.int(m.toSeq)
                w.staticKey("fromT"); w.int(m.fromT)
                w.staticKey("toT"); w.int(m.toT)
                w.endObject()
            }
            w.endObject()
        }
        w.endObject()
    }
}
