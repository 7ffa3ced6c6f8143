import Replay
import TraceCodec
import TraceModel

extension DiffSide {
    /// Reads and replays the trace at `path`; reader problems are recorded in the result (and passed
    /// to `onProblem`). Throws only when the file cannot be opened.
    public static func replay(path: String, options: ReplayOptions = ReplayOptions(),
                              onProblem: (TraceProblem) -> Void = { _ in }) throws -> DiffSide {
        let reader = try TraceReader(path: path)
        let replayer = Replayer(file: path, options: options)
        var side = DiffSide(file: path, result: ReplayResult(file: path))
        var problems: [TraceProblem] = []
        var count = 0
        reader.forEach(record: { r in
            side.note(r)
            replayer.feed(r)
        }, problem: { p in
            count += 1
            if problems.count < 1000 { problems.append(p) }
            onProblem(p)
        })
        side.finish(replayer)
        side.result.problems = problems
        side.result.problemCount = count
        side.result.unknownTypes = reader.unknownTypes
        return side
    }

    /// Replays records already in memory (tests).
    public static func replay(records: [Record], file: String = "<memory>", options: ReplayOptions = ReplayOptions()) -> DiffSide {
        let replayer = Replayer(file: file, options: options)
        var side = DiffSide(file: file, result: ReplayResult(file: file))
        for r in records {
            side.note(r)
            replayer.feed(r)
        }
        side.finish(replayer)
        return side
    }

    private mutating func finish(_ replayer: Replayer) {
        result = replayer.finish()
        levelChanges = replayer.quality.state.changes
    }

    /// Keeps a record's identity; headers and expectations are not behaviour and are not compared.
    private mutating func note(_ r: Record) {
        switch r.body {
        case .header:
            if header == nil { header = DiffRecord(seq: r.seq, t: r.t, type: r.type) }
            return
        case .expect: return
        default: break
        }
        let label = Self.label(r.body)
        indexBySeq[r.seq] = records.count
        records.append(Keyed(seq: r.seq, t: r.t, type: r.type, key: StableHash.fnv1a64(label), label: label))
    }

    /// A record's type and identifying fields in words: what pairs it with its counterpart (targets,
    /// device ids, states, events, layer ids), never its time or free text such as log lines.
    static func label(_ body: RecordBody) -> String {
        let type = body.type
        let fields: String
        switch body {
        case .setDefaultRoute(let target), .setRoute(let target, _): fields = target.rawValue
        case .setAudioModuleEnabled(let enabled): fields = enabled ? "true" : "false"
        case let .subscribe(pubUid, trackId, _): fields = "\(pubUid)/\(trackId)"
        case let .switchLayer(pubUid, trackId, target): fields = "\(pubUid)/\(trackId) → \(target)"
        case let .deviceConnected(id, kind, _, _): fields = "\(kind.rawValue) \(id)"
        case .deviceDisconnected(let id): fields = id
        case .micPermission(let status): fields = status.rawValue
        case .interruptionBegan(let cause): fields = cause?.rawValue ?? ""
        case .callState(let s), .sdkCallStateChanged(let s): fields = s.rawValue
        case .appState(let s): fields = s.rawValue
        case let .routeChanged(route, _, reason): fields = "\(route.rawValue) (\(reason.rawValue))"
        case .routeSnapshot(let route, _): fields = route.rawValue
        case .sessionActivated(let a): fields = a.ok ? "\(a.category ?? "?")/\(a.mode ?? "?")" : "failed"
        case .sessionDeactivated(let n): fields = n ? "notifyOthers" : "without notifyOthers"
        case .overrideOutput(let port): fields = port.rawValue
        case let .sdkQualityChanged(overall, previous, _): fields = "\(previous.rawValue) → \(overall.rawValue)"
        case .sdkLayerSwitched(let s), .srvLayerSwitched(let s): fields = "\(s.pubUid)/\(s.trackId) → \(s.toTrackId)"
        case let .sdkError(api, error): fields = "\(api) \(error)"
        case .connEngine(let v): fields = v.rawValue
        case .connState(let s): fields = s.rawValue
        case let .qualityReport(pub, sub): fields = "\(pub.level.rawValue)/\(sub.level.rawValue)"
        default: fields = ""
        }
        return fields.isEmpty ? type : type + " " + fields
    }
}
