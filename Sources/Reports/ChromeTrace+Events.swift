import Replay
import TraceModel

extension ChromeTrace {
    /// An argument value of an event.
    enum Arg {
        case string(String)
        case int(Int64)
        case double(Double)
        case ints([Int])
        /// Pre-encoded JSON (a record's canonical line), written verbatim.
        case raw(String)
    }

    /// One trace event; `ts` and `dur` in ms here, written in µs.
    struct Event {
        var ph: String
        var name: String
        var cat: String
        var tid: Int
        var ts: Int64
        var dur: Int64 = 0
        var args: [(String, Arg)] = []
        var order = 0
    }

    /// The process id every event carries.
    static let pid = 1

    /// `{"displayTimeUnit":"ms","otherData":{…}}`: what follows the events in the JSON object form.
    static func otherData(_ r: ReplayResult, _ observer: ChromeTraceObserver, eventsNotExported: Int, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("displayTimeUnit"); w.string("ms")
        w.key("otherData"); w.beginObject()
        w.key("schema"); w.string(schema)
        w.key("layer"); w.string(r.layer.rawValue)
        w.key("file"); w.path(r.file.split(separator: "/").last.map(String.init) ?? r.file)
        w.key("session")
        if let s = r.session {
            w.beginObject()
            w.key("id"); w.string(s.id)
            w.key("parts"); w.beginArray()
            for p in s.parts { w.int(p) }
            w.endArray()
            w.endObject()
        } else { w.null() }
        w.key("records"); w.int(r.records)
        w.key("durationMs"); w.int(r.durationMs)
        w.key("recordsNotExported"); w.int(observer.droppedInstants)
        w.key("countersNotExported"); w.int(observer.droppedCounters)
        w.key("verdictsNotExported"); w.int(max(0, r.verdicts.count - verdictCap))
        w.key("findingsNotExported"); w.int(r.findingsDropped)
        w.key("eventsNotExported"); w.int(eventsNotExported)
        w.key("timelineTruncated"); w.bool(r.timelineTruncated)
        w.endObject()
        w.endObject()
    }

    static func event(_ e: Event, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("name"); w.string(e.name)
        w.key("ph"); w.string(e.ph)
        if !e.cat.isEmpty { w.key("cat"); w.string(e.cat) }
        w.key("ts"); w.int(e.ts.saturatingMultiply(1000))
        if e.ph == "X" { w.key("dur"); w.int(max(0, e.dur).saturatingMultiply(1000)) }
        if e.ph == "i" { w.key("s"); w.string("t") }
        w.key("pid"); w.int(pid)
        w.key("tid"); w.int(e.tid)
        w.key("args"); w.beginObject()
        for (k, v) in e.args {
            w.key(k)
            switch v {
            case .string(let s): w.string(s)
            case .int(let n): w.int(n)
            case .double(let d): w.double(d)
            case .ints(let list):
                w.beginArray()
                for n in list { w.int(n) }
                w.endArray()
            case .raw(let json): w.raw(json)
            }
        }
        w.endObject()
        w.endObject()
    }
}
