import TraceCodec
import TraceModel

/// A replay of one trace that may span several files: the parts of one recorded session.
public struct PartsReplay: Sendable {
    /// The replay of every part's records, as one trace.
    public var result: ReplayResult
    /// Reader problems by kind, over all parts (not capped).
    public var problemsByKind: [TraceProblem.Kind: Int] = [:]
    /// Why the session is incomplete (a part replayed without the parts before it, or a part
    /// missing in between), when it is: the state before that point is unknown.
    public var incomplete: String?
    /// Parts that could be opened.
    public var partsOpened = 0
}

extension Replay {
    /// Replays the files of one trace in the order given (a session's parts in part order, or a
    /// single file) through one replayer; never throws: a part that cannot be opened is an `io`
    /// problem, and so is reading nothing at all.
    ///
    /// A later part's header continues the trace (its `seq` follows the part before it), so it is
    /// read but not replayed: replaying it would reset the persistent default and the device facts
    /// the first header set. The reader's complaint that such a header does not have seq 0 is not
    /// damage; a part that does not continue the one before it (seq or time) is.
    public static func run(parts: [String], options: ReplayOptions = ReplayOptions(),
                           limits: ReaderLimits = .standard, observer: ((ReplayStep) -> Void)? = nil) -> PartsReplay {
        let replayer = Replayer(file: parts.first ?? "", options: options)
        replayer.observer = observer
        var problems: [TraceProblem] = []
        var count = 0
        var out = PartsReplay(result: ReplayResult(file: parts.first ?? ""))
        func report(_ p: TraceProblem) {
            count += 1
            out.problemsByKind[p.kind, default: 0] += 1
            if problems.count < 1000 { problems.append(p) }
        }
        var lastSeq: Int?
        var lastT: Int64?
        var lastPart: Int?
        var sawHeader = false
        var continuationHeaders = 0
        var unknownTypes: [String: Int] = [:]
        for (k, path) in parts.enumerated() {
            let reader: TraceReader
            do { reader = try TraceReader(path: path, limits: limits) } catch {
                report(TraceProblem(.io, file: path, message: "\(error)"))
                continue
            }
            out.partsOpened += 1
            var held: [TraceProblem] = []
            var first = true
            reader.forEach(record: { r in
                var continuation = false
                if first {
                    first = false
                    if case .header(let h) = r.body, let s = h.session {
                        continuation = k > 0 || s.part > 1
                        if let before = lastPart, s.part != before + 1 {
                            out.incomplete = out.incomplete ?? "part \(s.part) of session \(s.id) follows part \(before): the parts between are missing"
                        } else if lastPart == nil, s.part > 1 {
                            out.incomplete = "part \(s.part) of session \(s.id) was replayed without the parts before it: the state before it is unknown"
                        }
                        lastPart = s.part
                    }
                    for p in held where !(continuation && p.kind == .header && p.seq == r.seq) { report(p) }
                    held.removeAll()
                    if k > 0, let last = lastSeq, r.seq != last + 1 {
                        report(TraceProblem(.seqGap, file: path, seq: r.seq, lost: r.seq > last + 1 ? (last + 1)...(r.seq - 1) : nil,
                                            message: "this part starts at seq \(r.seq), but the part before it ended at seq \(last)"))
                    }
                    if k > 0, let t = lastT, r.t < t {
                        report(TraceProblem(.timeBackwards, file: path, seq: r.seq, field: "t",
                                            message: "this part starts at \(formatDuration(r.t)), before the part before it ended (\(formatDuration(t)))"))
                    }
                }
                lastSeq = r.seq
                lastT = max(lastT ?? r.t, r.t)
                if case .header = r.body {
                    if continuation && sawHeader {
                        continuationHeaders += 1
                        return
                    }
                    sawHeader = true
                }
                replayer.feed(r)
            }, problem: { p in
                if first && p.kind == .header { held.append(p) } else { report(p) }
            })
            for p in held { report(p) }
            for (type, n) in reader.unknownTypes { unknownTypes[type, default: 0] += n }
        }
        var result = replayer.finish()
        result.records += continuationHeaders
        result.problems = problems
        result.problemCount = count
        result.unknownTypes = unknownTypes
        out.result = result
        return out
    }
}
