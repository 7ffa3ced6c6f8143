import Analysis
import Replay
import TraceModel

/// Collects what a Chrome trace export needs during a replay: the state lanes and their moments, one
/// instant per record, and the quality (level and every `QualityMetric` per side) and speaker
/// counters, each up to a cap so memory stays bounded.
package final class ChromeTraceObserver {
    /// The state lanes (engagement, session, CallKit, interruption, call state, app, audio module, devices,
    /// quality, speakers, SDK callbacks) with their moments.
    package let lanes: ReportLanes
    /// Records kept as instants at most.
    package let maxInstants: Int
    /// Counter samples kept at most.
    package let maxCounters: Int
    /// Bytes of record JSON kept as instants at most (each record's JSON is cut to `instantJSONChars`
    /// characters first): a cap in size as well as in count.
    package let maxInstantBytes: Int
    /// Characters of one record's JSON an instant carries; a longer record is a string cut to this,
    /// an ellipsis and the full length.
    package static let instantJSONChars = 2000
    /// Records seen beyond `maxInstants` or `maxInstantBytes` (not exported).
    package private(set) var droppedInstants = 0
    /// Bytes of record JSON kept as instants so far.
    private var instantBytes = 0
    /// Counter samples beyond `maxCounters` (not exported).
    package private(set) var droppedCounters = 0

    struct Instant {
        let seq: Int
        let t: Int64
        let type: String
        let json: String
        /// Whether `json` is the record's whole JSON (else a string clipped from it).
        let whole: Bool
    }

    /// One counter sample: a name from `counterNames` and up to two values (`pub` and `sub`, or `count`),
    /// stored inline so that 300 000 samples cost no allocation each.
    struct Counter {
        let t: Int64
        let name: UInt8
        let first: (key: StaticString, value: Double)
        let second: (key: StaticString, value: Double)?
    }

    /// The counters' names, by `Counter.name`: the quality level, each `QualityMetric`, active speakers.
    static let counterNames: [String] = ["quality level (0 unknown … 4 lost)"] + QualityMetric.allCases.map(\.counterName) + ["active speakers"]

    var instants: [Instant] = []
    /// Records kept as instants.
    package var instantCount: Int { instants.count }
    var counters: [Counter] = []

    /// Creates an observer with the given caps (counter samples: six per quality report, so the default
    /// keeps as many reports, 50 000, as the two per report it kept before RTT, loss, jitter and bitrate).
    package init(maxInstants: Int = 100_000, maxInstantBytes: Int = 32 << 20, maxCounters: Int = 300_000, maxSegments: Int = 20_000) {
        lanes = ReportLanes(maxSegments: maxSegments)
        self.maxInstants = maxInstants
        self.maxInstantBytes = maxInstantBytes
        self.maxCounters = maxCounters
    }

    /// Feeds one replay step (pass this as the replay's observer).
    package func observe(_ step: ReplayStep) {
        lanes.observe(step)
        if let r = step.record {
            if instants.count < maxInstants && instantBytes < maxInstantBytes {
                let line = r.jsonLine
                let whole = line.utf8.count <= Self.instantJSONChars
                let json = whole ? line : TextCap.clip(line, Self.instantJSONChars)
                instantBytes += json.utf8.count
                instants.append(Instant(seq: r.seq, t: r.t, type: r.type, json: json, whole: whole))
            } else {
                droppedInstants += 1
            }
            if case .qualityReport(let pub, let sub) = r.body {
                counter(r.t, 0, ("pub", Double(pub.level.rank)), ("sub", Double(sub.level.rank)))
                for (k, m) in QualityMetric.allCases.enumerated() {
                    switch (m.value(pub).map(m.shown), m.value(sub).map(m.shown)) {
                    case let (p?, s?): counter(r.t, UInt8(k + 1), ("pub", p), ("sub", s))
                    case let (p?, nil): counter(r.t, UInt8(k + 1), ("pub", p), nil)
                    case let (nil, s?): counter(r.t, UInt8(k + 1), ("sub", s), nil)
                    case (nil, nil): break
                    }
                }
            }
        }
        if step.changes.contains(.speakers), let state = step.state {
            counter(step.t, UInt8(Self.counterNames.count - 1), ("count", Double(state.speakerCount)), nil)
        }
    }

    private func counter(_ t: Int64, _ name: UInt8, _ first: (key: StaticString, value: Double), _ second: (key: StaticString, value: Double)?) {
        if counters.count < maxCounters { counters.append(Counter(t: t, name: name, first: first, second: second)) } else { droppedCounters += 1 }
    }
}

/// The Chrome Trace Event Format (JSON object form), which Perfetto's UI and chrome://tracing open.
///
/// One process for the trace; one thread (track) per lane with its states as complete (`X`)
/// slices that never overlap and its moments (activations, CallKit events, resets, SDK callbacks,
/// level changes, override flushes) as instants; counters (`C`) for quality levels, RTT, loss,
/// jitter, bitrate, MOS (pub and sub) and active speakers; instants (`i`) for records, verdicts and
/// findings; divergences as slices on their own track.
/// Timestamps are microseconds since the trace started (`t` × 1000). Events are sorted by time.
package enum ChromeTrace {
    /// The schema id written into `otherData`.
    package static let schema = "rtctrace.chrome/1"
    /// Verdicts exported at most (the rest are counted in `otherData`).
    package static let verdictCap = 100_000

    /// Track ids of the lanes, in `ReportLanes.order` from 1, then the marker tracks from 100.
    static let laneTid: [String: Int] = Dictionary(uniqueKeysWithValues: ReportLanes.order.enumerated().map { ($1, $0 + 1) })
    static let verdictsTid = 100, findingsTid = 101, divergencesTid = 102, recordsTid = 103

    /// Renders the export for a replay result and what the observer collected during it, whole.
    package static func render(_ r: ReplayResult, observer: ChromeTraceObserver) -> String {
        var out: [UInt8] = []
        write(r, observer: observer, budget: nil) { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The events in the order the file lists them, one source at a time: each lane's slices and its
    /// moments, the divergences, verdicts, findings, record instants and counter samples. Each source is
    /// in time order (sorted here when it is not), and `write` merges them, so no event is held but the
    /// one being written: memory is the observer's and the result's, whatever the export's size.
    static func sources(_ r: ReplayResult, _ observer: ChromeTraceObserver, _ lanes: [Lane]) -> [Source] {
        var out: [Source] = []
        for lane in lanes {
            guard let tid = laneTid[lane.id] else { continue }
            let cat = lane.id.hasPrefix("quality") ? "quality" : (lane.id == "predicted" || lane.id == "actual" ? "route" : "state")
            let segments = lane.segments.filter { !($0.quiet && cat != "route") }
            out.append(Source(tid: tid, count: segments.count, key: { (segments[$0].start, 0) }) { i in
                let s = segments[i]
                var args: [(String, Arg)] = [("state", .string(s.value))]
                if let seq = s.seq { args.append(("seq", .int(Int64(seq)))) }
                if s.merged > 1 { args.append(("mergedChanges", .int(Int64(s.merged)))) }
                return Event(ph: "X", name: s.value, cat: cat, tid: tid, ts: s.start, dur: s.end - s.start, args: args)
            })
            let marks = lane.marks
            out.append(Source(tid: tid, count: marks.count, key: { (marks[$0].t, 1_000_000 + $0) }) { i in
                let m = marks[i]
                var args: [(String, Arg)] = [("what", .string(m.what))]
                if let seq = m.seq { args.append(("seq", .int(Int64(seq)))) }
                if m.merged > 1 { args.append(("mergedMoments", .int(Int64(m.merged)))) }
                return Event(ph: "i", name: m.value, cat: "moment", tid: tid, ts: m.t, args: args, order: 1_000_000 + i)
            })
        }
        let divergences = r.divergences
        out.append(Source(tid: divergencesTid, count: divergences.count, key: { (divergences[$0].start, $0) }) { i in
            let d = divergences[i]
            let lines = HTMLReport.divergenceLines(d, index: i, r)
            return Event(ph: "X", name: "\(d.explained ? "explained" : d.startStateUnknown ? "unknown start state" : d.uncertain ? "uncertain" : "UNEXPLAINED"): predicted \(d.predicted.rawValue), played \(d.actual.rawValue)",
                         cat: "divergence", tid: divergencesTid, ts: d.start, dur: d.end - d.start,
                         args: [("index", .int(Int64(i))), ("explainedBy", .string(d.explainedBy?.rawValue ?? "")),
                                ("seqs", .ints(d.seqs)), ("explanation", .string(lines.joined(separator: "\n")))], order: i)
        })
        let verdicts = r.verdicts.prefix(verdictCap)
        out.append(Source(tid: verdictsTid, count: verdicts.count, key: { (verdicts[verdicts.startIndex + $0].t, 0) }) { i in
            let v = verdicts[verdicts.startIndex + i]
            var args: [(String, Arg)] = [("seq", .int(Int64(v.seq))), ("call", .string(v.call.rawValue)), ("verdict", .string(v.verdict.rawValue)),
                                         ("rule", .string(v.rule.rawValue))]
            if let api = v.api { args.append(("api", .string(TextCap.clip(api)))) }
            if let c = v.cause { args.append(("cause", .string(c.rawValue))) }
            if let cs = v.causeSeq { args.append(("causeSeq", .int(Int64(cs)))) }
            args.append(("explanation", .string(HTMLReport.verdictLines(v, r).joined(separator: "\n"))))
            return Event(ph: "i", name: "\(v.verdict.rawValue): \(TextCap.clip(v.api ?? v.call.rawValue))", cat: "verdict", tid: verdictsTid, ts: v.t, args: args)
        })
        let advice = Explanation.FindingAdvice(r)
        let findings = r.findings
        out.append(Source(tid: findingsTid, count: findings.count, key: { (findings[$0].t, $0) }) { i in
            let f = findings[i]
            return Event(ph: "i", name: f.code.rawValue, cat: "finding", tid: findingsTid, ts: f.t,
                         args: [("severity", .string(f.severity.rawValue)), ("rule", .string(f.rule?.rawValue ?? "")), ("seqs", .ints(f.seqs)),
                                ("message", .string(f.message)), ("advice", .string(advice.advice(i, r)))], order: i)
        })
        let instants = observer.instants
        out.append(Source(tid: recordsTid, count: instants.count, key: { (instants[$0].t, instants[$0].seq) }) { i in
            let x = instants[i]
            return Event(ph: "i", name: x.type, cat: "record", tid: recordsTid, ts: x.t,
                         args: [("seq", .int(Int64(x.seq))), ("record", x.whole ? .raw(x.json) : .string(x.json))], order: x.seq)
        })
        let counters = observer.counters
        out.append(Source(tid: 0, count: counters.count, key: { (counters[$0].t, $0) }) { i in
            let c = counters[i]
            var args: [(String, Arg)] = [("\(c.first.key)", .double(c.first.value))]
            if let s = c.second { args.append(("\(s.key)", .double(s.value))) }
            return Event(ph: "C", name: ChromeTraceObserver.counterNames[Int(c.name)], cat: "counter", tid: 0, ts: c.t, args: args, order: i)
        })
        return out
    }

    static func metadata(_ r: ReplayResult, _ lanes: [Lane]) -> [Event] {
        let base = r.file.split(separator: "/").last.map(String.init) ?? r.file
        var m: [Event] = [Event(ph: "M", name: "process_name", cat: "", tid: 0, ts: 0, args: [("name", .string("\(Wording.title(r)) \(base)" + (Wording.sessionName(r).map { " (\($0))" } ?? "")))])]
        var tracks = lanes.compactMap { lane in laneTid[lane.id].map { ($0, lane.title) } }
        tracks += [(verdictsTid, "calls (verdicts)"), (findingsTid, "findings"), (divergencesTid, "route divergences"), (recordsTid, "records")]
        for (tid, name) in tracks.sorted(by: { $0.0 < $1.0 }) {
            m.append(Event(ph: "M", name: "thread_name", cat: "", tid: tid, ts: 0, args: [("name", .string(name))]))
            m.append(Event(ph: "M", name: "thread_sort_index", cat: "", tid: tid, ts: 0, args: [("sort_index", .int(Int64(tid)))]))
        }
        return m
    }
}
