import TraceCodec
import TraceModel

/// What an import made: the output trace's records, and how they were placed.
package struct ImportResult: Sendable {
    /// Every record of the output trace, in order (its header first).
    package var records: [Record]
    /// The imported records among them, as written.
    package var added: [Record]
    /// How the log's times became `t`.
    package var alignment: Alignment
    /// Which process was taken for the app.
    package var identity: AppIdentity
    /// Recognised lines not imported, by why.
    package var notImported: [(reason: String, count: Int)]
    /// Each record of the trace imported into: its seq there and its seq in the output.
    package var seqs: [Int: Int]
}

/// Why a recognised line was not imported (the command's report lists them).
enum NotImported: String, CaseIterable {
    case held = "the trace already holds it (within the match window)"
    case otherInterruption = "another process's interruption (no record type speaks of it)"
    case outside = "outside the trace's time"
}

extension LogImport {
    /// Places the recognised lines of `reading` in time and makes them records: a trace of their own
    /// (`trace` nil: its header starts at the first line), or merged by time into `trace` (every record of a
    /// trace or of a session's parts, in order), its seqs renumbered and its expectations' references with them.
    package static func build(_ reading: LogReading, into trace: [Record]?, options: LogImportOptions, utcOffset: Int? = nil,
                             layer: Layer = .srtc) throws -> ImportResult {
        let headers = (trace ?? []).compactMap { r -> (t: Int64, header: TraceHeader)? in
            if case .header(let h) = r.body { return (r.t, h) }
            return nil
        }
        let starts = headers.compactMap { h -> PartStart? in
            guard let text = h.header.startedAt, let ms = UTCTime.milliseconds(text) else { return nil }
            return PartStart(t: h.t, startedMs: ms, precisionMs: LogClock.parse(text)?.precisionMs ?? 1000)
        }
        let facts = reading.facts
        let identity = reading.evidence.identity(process: options.process, pid: options.pid, bundleId: headers.first?.header.app.bundleId, facts: facts)
        let instants: [TimeAlignment.Instant]
        do {
            instants = try TimeAlignment.instants(facts, fileOffsets: reading.fileOffsets, date: options.date, startedMs: starts.first?.startedMs,
                                                  utcOffset: options.utcOffsetMinutes ?? utcOffset)
        } catch let f as TimeAlignment.Failure {
            throw LogImportError(f.description, .usage)
        }
        let unknownOffset = instants.firstIndex { $0.offsetUnknown }
        // A pattern table reads the app's own log: its records are the app's.
        let isApp = facts.map { f -> Bool in
            if case .record = f.what { return true }
            return identity.isApp(f.process, pid: f.pid)
        }

        // Each line's t and how far off it may be.
        var times: [(t: Int64, uncertainty: Int64)]
        var alignment: Alignment
        if let trace {
            guard !starts.isEmpty else {
                throw LogImportError(ImportWords.noStartedAt, .refusal)
            }
            let wall = instants.map { TimeAlignment.wallT($0.utcMs, starts)! }
            let own = facts.indices.filter { i in isApp[i] && Self.isActivation(facts[i].what) }.map { (t: wall[$0].t, precisionMs: instants[$0].precisionMs) }
            let activations = trace.compactMap { r -> Int64? in
                if case .sessionActivated(let a) = r.body, a.ok { return r.t }
                return nil
            }
            if let a = TimeAlignment.anchor(trace: activations, log: own, window: options.anchorWindowMs, offsetUnknown: unknownOffset != nil) {
                times = wall.map { ($0.t + a.shiftMs, a.uncertaintyMs) }
                alignment = Alignment(source: .anchored, uncertaintyMs: a.uncertaintyMs, anchors: a.anchors, shiftMs: a.shiftMs - (a.zoneMs ?? 0),
                                      foundOffsetMinutes: a.zoneMs.map { Int(-$0 / 60_000) })
            } else {
                if let i = unknownOffset { throw noOffset(facts[i]) }
                times = zip(wall, instants).map { ($0.t, $0.precisionMs + $1.precisionMs) }
                alignment = Alignment(source: .wall, uncertaintyMs: times.map(\.uncertainty).max() ?? 0, anchors: 0, shiftMs: 0, foundOffsetMinutes: nil)
            }
        } else {
            if let i = unknownOffset { throw noOffset(facts[i]) }
            let base = instants.map(\.utcMs).min() ?? 0
            times = instants.map { ($0.utcMs - base, $0.precisionMs) }
            alignment = Alignment(source: .wall, uncertaintyMs: times.map(\.uncertainty).max() ?? 0, anchors: 0, shiftMs: 0, foundOffsetMinutes: nil,
                                  onItsOwn: true)
        }

        // The records, in time order (lines of one time keep their order).
        var candidates: [(t: Int64, body: RecordBody, uncertainty: Int64)] = []
        var skipped: [NotImported: Int] = [:]
        for i in facts.indices.sorted(by: { (times[$0].t, $0) < (times[$1].t, $1) }) {
            guard let body = record(facts[i], isApp: isApp[i], source: alignment.source, uncertainty: times[i].uncertainty, evidence: reading.evidence)
            else { skipped[.otherInterruption, default: 0] += 1; continue }
            candidates.append((times[i].t, body, times[i].uncertainty))
        }

        var held = HeldRecords(trace ?? [], matchWindowMs: options.matchWindowMs)
        // From the trace's start to before its last record: the replay ends the engines at the last record,
        // which stays the trace's own (E1: nothing imported moves the end).
        let firstT = trace?.first?.t ?? 0, lastT = trace?.last?.t ?? 0
        var added: [(t: Int64, body: RecordBody)] = []
        for c in candidates {
            if trace != nil, c.t < firstT || c.t >= lastT { skipped[.outside, default: 0] += 1; continue }
            let slack = alignment.source == .wall ? c.uncertainty : 0
            if held.holds(c.body, at: c.t, slack: slack) { skipped[.held, default: 0] += 1; continue }
            held.add(c.body, at: c.t)
            added.append((c.t, c.body))
        }
        let header = Record(seq: 0, t: 0, .header(TraceHeader(layer: layer, startedAt: UTCTime.iso(instants.map(\.utcMs).min() ?? 0))))
        let merged = try TraceMerge.merge(trace ?? [header], added)
        return ImportResult(records: merged.records, added: merged.added, alignment: alignment, identity: identity,
                            notImported: NotImported.allCases.compactMap { r in skipped[r].map { (r.rawValue, $0) } }, seqs: merged.seqs)
    }

    /// Whether a fact is an activation that succeeded (what an anchor pairs).
    static func isActivation(_ what: LogFact.What) -> Bool {
        switch what {
        case .system(.sessionActivated(let ok, _, _, _)): ok
        case .record(.sessionActivated(let a)): a.ok
        case .record(.system(let s)): if case .sessionActivated(true, _, _, _) = s.event { true } else { false }
        case .system, .interruptionBegan, .record: false
        }
    }

    /// The record a fact becomes: for the app's own process, the `os.*` record it carries every field of
    /// (an interruption, a foreground or background state), else a `sys.*` record; nil for what has no record type.
    static func record(_ f: LogFact, isApp: Bool, source: SystemLogTimeSource, uncertainty: Int64, evidence: ProcessEvidence) -> RecordBody? {
        func system(_ event: SystemLogRecord.Event) -> RecordBody {
            var e = event
            if case let .sessionActivated(ok, error, pid?, nil) = event, let name = evidence.name(ofPid: pid) {
                e = .sessionActivated(ok: ok, error: error, controllingPid: pid, controllingProcess: name)
            }
            return .system(SystemLogRecord(e, process: f.process, pid: f.pid ?? evidence.pid(ofName: f.process), session: f.session,
                                           wall: f.entry.timeText, isSelf: isApp,
                                           timeSource: source, uncertaintyMs: uncertainty))
        }
        switch f.what {
        case .interruptionBegan(let wasSuspended):
            return isApp ? .interruptionBegan(cause: nil, wasSuspended: wasSuspended) : nil
        case .system(.appState(let state)) where isApp:
            let s = state.lowercased()
            if s.hasPrefix("foreground") { return .appState(state: .foreground) }
            if s.hasPrefix("background") { return .appState(state: .background) }
            return system(.appState(state: state))
        case .system(let event):
            return system(event)
        case .record(.system(var s)):
            s.timeSource = source
            s.uncertaintyMs = uncertainty
            return .system(s)
        case .record(let body):
            return body
        }
    }

    static func noOffset(_ f: LogFact) -> LogImportError {
        LogImportError(ImportWords.noUTCOffset(file: f.entry.file, line: f.entry.line, time: TextCap.clip(f.entry.timeText)), .usage)
    }
}

/// The records a trace already holds, to add none twice: the app's own records by type and identity
/// within the match window, `sys.*` records by type, process and time text.
struct HeldRecords {
    private var times: [String: [Int64]] = [:]
    private var system: Set<String> = []
    let matchWindowMs: Int64

    init(_ records: [Record], matchWindowMs: Int64) {
        self.matchWindowMs = matchWindowMs
        for r in records { add(r.body, at: r.t) }
    }

    private static func key(_ body: RecordBody) -> String? {
        if case .system(let s) = body { return "\(body.type)\u{0}\(s.process)\u{0}\(s.wall)\u{0}\(s.session ?? "")" }
        guard let kind = body.kind, kind.family != .trace else { return nil }
        // The log tells an interruption without its cause, so any interruption of the trace near it is the same one.
        if case .interruptionBegan = body { return kind.rawValue }
        return kind.rawValue + "\u{0}" + body.identity
    }

    mutating func add(_ body: RecordBody, at t: Int64) {
        guard let key = Self.key(body) else { return }
        if case .system = body { system.insert(key) } else { times[key, default: []].append(t) }
    }

    func holds(_ body: RecordBody, at t: Int64, slack: Int64) -> Bool {
        guard let key = Self.key(body) else { return false }
        if case .system = body { return system.contains(key) }
        return times[key]?.contains { abs($0 - t) <= matchWindowMs + slack } ?? false
    }
}
