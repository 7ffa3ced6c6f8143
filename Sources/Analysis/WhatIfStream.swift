import Replay
import TraceCodec
import TraceModel

/// A what-if whose edits act on each record alone, in trace order (session edits and drop-type: none
/// moves, delays, names or adds a record), made in the same pass as the original's replay: each batch
/// the reader decoded is replayed edited while it is still in the cache, and no batch is kept for a
/// second pass. What it finds is what `WhatIf.run` finds of the same trace and edits.
package enum WhatIfStream {
    /// Whether every edit acts on each record alone, so that the edited trace can be replayed as it is read.
    package static func streams(_ edits: [WhatIfEdit]) -> Bool {
        edits.allSatisfy { edit in
            switch edit {
            case .session, .dropType: true
            case .move, .delay, .drop, .insert: false
            }
        }
    }

    /// Reads and replays the files of one trace, and the trace with `edits` (`streams(edits)`) in the same
    /// pass; returns the original's whole replay and the what-if. Nil when the trace's seqs do not rise
    /// from record to record: a seq may then name records far apart, which an edit takes together, and the
    /// trace is to be read again for `WhatIf.run` (its problems were reported to `onProblem` already).
    package static func run(_ session: TraceSession, edits: [WhatIfEdit], options: ReplayOptions = ReplayOptions(),
                            onProblem: (TraceProblem) -> Void = { _ in }) -> (original: ReplayResult, whatif: WhatIfResult)? {
        precondition(streams(edits), "only edits that act on each record alone are made as the trace is read")
        var pass = Pass(edits: edits, file: session.first + " (edited)", options: options)
        var a = DiffSide(file: session.first, result: ReplayResult(file: session.first))
        // Not strict, and a file that cannot be opened is a problem: nothing is thrown.
        let result = (try? Replay.run(session, options: options, unopened: .isAProblem, onBatch: { pass.take($0, noting: &a) },
                                      onProblem: onProblem)) ?? ReplayResult(file: session.first)
        guard pass.rising else { return nil }
        a.result = result
        a.levelChanges = result.levelChanges
        let b = pass.editedSide(sharing: a)
        let names = pass.names, kinds = pass.kinds
        let shape = WhatIf.EditedShape(count: names.count, name: { names[$0] },
                                       isHistory: { $0 >= 0 && $0 < kinds.count && kinds[$0].map(WhatIf.isHistory) == true },
                                       inserted: [], firstEditT: pass.firstEditT, changed: pass.changed)
        let whatif = WhatIf.compare(a, history: pass.history, lastSeq: pass.lastSeq ?? 0, count: pass.count, b, shape, edits: edits,
                                    toleranceMs: options.toleranceMs)
        return (result, whatif)
    }

    /// The pass over the trace: the edits applied to each record as it is read, the edited trace replayed,
    /// and what the comparison needs of both kept.
    struct Pass {
        let edits: [WhatIfEdit]
        /// The kind each drop-type edit names, where its type is one.
        let dropKinds: [RecordKind?]
        /// The kinds an edit may act on, and whether one acts on records of no kind (a type this version
        /// does not know): a record of another kind is taken as it is without asking each edit.
        let actedOn: [RecordKind], actsOnUnknown: Bool
        /// Whether an edit changes session activations (their bodies, not only which records are kept).
        let editsSessions: Bool
        let replayer: Replayer
        /// The edited trace's name in results.
        let file: String
        /// Records read, the last one's seq, and whether every seq so far rose.
        var count = 0, lastSeq: Int?, rising = true
        /// The seqs of the original's history records.
        var history = SeqIndex()
        /// For each edit, whether it changed any record; the time of the first record one touched.
        var changed: [Bool], firstEditT: Int64?
        /// For each record of the edited trace (by its new seq): its name, kind and time, and its identity
        /// on the original's side (-1: to be noted, from `pending` in order).
        var names: [Int] = [], kinds: [RecordKind?] = [], times: [Int64] = [], identities: [Int32] = []
        /// The edited trace's records not noted with the original's identity, made whole, in order.
        var pending: [Record] = []

        init(edits: [WhatIfEdit], file: String, options: ReplayOptions) {
            self.edits = edits
            dropKinds = edits.map { edit in
                guard case let .dropType(type, _) = edit else { return nil }
                return RecordKind(rawValue: type)
            }
            replayer = Replayer(file: file, options: options)
            self.file = file
            // A list of the few kinds (a kind's hash is its name's).
            var kinds: [RecordKind] = [], unknown = false
            for (edit, kind) in zip(edits, dropKinds) {
                switch edit {
                case .session: kinds.append(.sessionActivated)
                case .dropType: if let kind { kinds.append(kind) } else { unknown = true }
                case .move, .delay, .drop, .insert: break
                }
            }
            (actedOn, actsOnUnknown) = (kinds, unknown)
            editsSessions = edits.contains { edit in
                if case .session = edit { return true }
                return false
            }
            changed = Array(repeating: false, count: edits.count)
        }

        /// Notes, edits and replays edited each record of a batch the reader decoded (`a`: the original's
        /// side, noted here while the batch is in the cache).
        mutating func take(_ batch: RecordBatch, noting a: inout DiffSide) {
            // A batch whose edited records are some of its records, in their order and as they were (none
            // of it activates a session an edit could change), ending at its own last record, is replayed
            // edited as the original replays it, renumbered (seqs still rise): its records may be handed on
            // past the ordering stage as the original's are, its last record making them due as there.
            let untouched = rising && batch.records.last.map { r in !(r.kind.map(actedOn.contains) ?? actsOnUnknown) } == true
                && !(editsSessions && batch.records.contains { $0.kind == .sessionActivated })
            if untouched { replayer.begin(batch) }
            defer { if untouched { replayer.endBatch() } }
            for j in batch.records.indices {
                let r = batch.records[j]
                count += 1
                if let last = lastSeq, r.seq <= last { rising = false }
                lastSeq = r.seq
                // An out-of-order seq: the pass is done again from kept records, so nothing more is made here.
                guard rising else { continue }
                if r.kind.map(WhatIf.isHistory) == true { history[r.seq] = 1 }
                let id = a.note(j, of: batch)
                guard let body = edit(r, in: batch) else { continue }
                let n = names.count
                names.append(r.seq)
                kinds.append(r.kind)
                times.append(r.t)
                if let edited = body {
                    // An activation an edit changed: replayed and noted whole.
                    var whole = batch.full[Int(r.full)]
                    (whole.seq, whole.t, whole.body) = (n, r.t, edited)
                    replayer.feed(whole)
                    pending.append(whole)
                    identities.append(-1)
                    continue
                }
                replayer.feed(batch, j, seq: n, t: r.t)
                if id < 0 {
                    var whole = WhatIfRecords.record(j, of: batch)
                    (whole.seq, whole.t) = (n, r.t)
                    pending.append(whole)
                }
                identities.append(id)
            }
        }

        /// The edits applied in order to record `r`: nil when one drops it, else the body an edit gave it
        /// (nil: as it was).
        mutating func edit(_ r: ReplayRecord, in batch: RecordBatch) -> RecordBody?? {
            var body: RecordBody?
            guard r.kind.map(actedOn.contains) ?? actsOnUnknown else { return .some(nil) }
            func whole() -> RecordBody? { r.hasFull ? batch.full[Int(r.full)].body : nil }
            for (k, edit) in edits.enumerated() {
                switch edit {
                case let .session(field, value, from):
                    guard r.kind == .sessionActivated, r.t >= (from ?? 0),
                          case .sessionActivated(let before)? = body ?? whole() else { continue }
                    let after = EditedTrace.edited(before, field, value)
                    guard after != before else { continue }
                    body = .sessionActivated(after)
                case let .dropType(type, from):
                    guard r.t >= (from ?? 0), EditedTrace.isOfType(r.kind, dropKinds[k], type, body: whole) else { continue }
                    changed[k] = true
                    firstEditT = min(firstEditT ?? r.t, r.t)
                    return nil
                case .move, .delay, .drop, .insert:
                    continue
                }
                changed[k] = true
                firstEditT = min(firstEditT ?? r.t, r.t)
            }
            return .some(body)
        }

        /// The edited trace's side for the comparison: its records with the original's identities where
        /// they are the original's (noted afresh otherwise, in order), and its replay.
        func editedSide(sharing a: DiffSide) -> DiffSide {
            var b = DiffSide(file: file, result: ReplayResult(file: file))
            (b.identities, b.identityIndex) = (a.identities, a.identityIndex)
            b.records.reserveCapacity(names.count)
            b.indexBySeq.reserve(through: names.count - 1, count: names.count)
            var next = 0
            for n in names.indices {
                let id = identities[n]
                guard id >= 0 else {
                    b.note(pending[next])
                    next += 1
                    continue
                }
                b.append(seq: n, t: times[n], id: id)
            }
            b.result = replayer.finish()
            b.levelChanges = b.result.levelChanges
            return b
        }
    }
}
