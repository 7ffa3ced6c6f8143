import Analysis
import TraceModel

/// `check --json`: one object with the counts and every trace's outcome (its file and parts, whether it
/// passed, its expectations, its snapshot, its failures).
package enum CheckJSON {
    /// The summary, one line without its end.
    package static func render(_ outcomes: [CheckOutcome]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("passed"); w.int(outcomes.filter(\.passed).count)
        w.key("failed"); w.int(outcomes.filter { !$0.passed }.count)
        w.key("traces"); w.beginArray()
        for o in outcomes {
            w.beginObject()
            w.key("file"); w.path(o.file)
            w.key("parts"); w.beginArray(); for p in o.parts { w.path(p) }; w.endArray()
            w.key("passed"); w.bool(o.passed)
            w.key("expectations"); w.int(o.expectations)
            w.key("snapshot")
            switch o.snapshot {
            case .none: w.string("none")
            case .matched: w.string("matched")
            case .changed: w.string("changed")
            }
            w.key("failures"); w.beginArray()
            for f in o.failures { w.string(f) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.string
    }
}
