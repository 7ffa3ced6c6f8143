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
        if case .header = r.body {
            if header == nil { header = DiffRecord(seq: r.seq, t: r.t, type: r.type) }
            return
        }
        if case .expect = r.body { return }
        let label = Self.label(r.body)
        indexBySeq[r.seq] = records.count
        records.append(Keyed(seq: r.seq, t: r.t, type: r.type, key: StableHash.fnv1a64(label), label: label))
    }

    /// A record's type and identifying fields in words: what pairs it with its counterpart.
    static func label(_ body: RecordBody) -> String {
        let fields = body.identity
        return fields.isEmpty ? body.type : body.type + " " + fields
    }
}
