import Analysis
import TraceModel

extension ExplainJSON {
    /// What the device's system log names (E1), only in a trace that holds `sys.*` records.
    static func systemLog(_ e: SystemLogEvidence, _ w: inout JSONWriter) {
        w.key("systemLog"); w.beginObject()
        w.key("records"); w.int(e.records)
        w.key("timing"); w.string(e.timing)
        w.key("items"); w.beginArray()
        for i in e.items {
            w.beginObject()
            switch i.subject {
            case let .finding(index, code):
                w.key("finding"); w.int(index)
                w.key("code"); w.string(code.rawValue)
            case .interruption(let seq):
                w.key("interruptionSeq"); w.int(seq)
            }
            w.key("t"); w.int(i.t)
            w.key("evidenceSeq"); w.int(i.evidenceSeq)
            w.key("evidenceT"); w.int(i.evidenceT)
            w.key("process"); w.string(i.process)
            w.key("self"); w.bool(i.isSelf)
            if let c = i.cause { w.key("cause"); w.string(c.rawValue) }
            if let c = i.component { w.key("component"); w.string(c) }
            w.key("text"); w.string(i.text)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}
