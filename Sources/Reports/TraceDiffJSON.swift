import Analysis
import TraceModel

/// A trace diff as JSON (schema `rtctrace.diff/2`, documented in docs/json.md).
public enum TraceDiffJSON {
    /// The schema id.
    public static let schema = "rtctrace.diff/2"

    /// Renders the diff as one object (no trailing newline).
    public static func render(_ d: TraceDiff) -> String {
        var w = JSONWriter(reserving: 4096)
        w.beginObject()
        w.key("schema"); w.string(schema)
        w.key("same"); w.bool(d.same)
        w.key("toleranceMs"); w.int(d.toleranceMs)
        w.key("paired"); w.int(d.paired)
        w.key("changedCalls"); w.int(d.changedCalls)
        w.key("offsetMs"); w.int(d.offsetMs)
        w.key("a"); side(d.a, &w)
        w.key("b"); side(d.b, &w)
        w.key("differenceCount"); w.int(d.differenceCount)
        w.key("differences"); w.beginArray()
        for x in d.differences { difference(x, &w) }
        w.endArray()
        w.endObject()
        return w.string
    }

    static func side(_ s: TraceDiff.Side, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("file"); w.path(s.file)
        w.key("layer"); w.string(s.layer.rawValue)
        w.key("records"); w.int(s.records)
        w.key("unpairedCount"); w.int(s.unpairedCount)
        w.key("unpaired"); w.beginArray()
        for r in s.unpaired { record(r, &w) }
        w.endArray()
        w.endObject()
    }

    static func record(_ r: DiffRecord?, _ w: inout JSONWriter) {
        guard let r else { return w.null() }
        w.beginObject()
        w.key("seq"); w.int(r.seq)
        w.key("t"); w.int(r.t)
        w.key("type"); w.string(r.type)
        w.endObject()
    }

    static func difference(_ x: Difference, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("kind"); w.string(x.kind.rawValue)
        w.key("subject"); w.string(x.subject)
        w.key("rule"); w.string(x.rule?.rawValue)
        w.key("t"); w.int(x.t)
        w.key("until"); if let u = x.until { w.int(u) } else { w.null() }
        for (name, r, value, cause, steps) in [("a", x.a, x.aValue, x.aCause, x.aSteps), ("b", x.b, x.bValue, x.bCause, x.bSteps)] {
            w.key(name); w.beginObject()
            w.key("record"); record(r, &w)
            w.key("value"); w.string(value)
            w.key("cause"); w.string(cause?.rawValue)
            w.key("then"); w.beginArray()
            for step in steps {
                w.beginObject()
                w.key("t"); w.int(step.t)
                w.key("value"); w.string(step.value)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endObject()
    }
}
