import Contract
import TraceCodec
import TraceModel

// Records handed on at once, past the ordering stage, where holding them could not change the replay.
//
// `ReplayOrder` holds every record for one match window, in case a late record comes that sorts before it.
// Within a batch whose records are already in replay order, a record that sorts after every record taken
// so far, and whose `t` is more than a window before the batch's last, would be made due by a record of
// the same batch, and no record between sorts before it: replayed now, it is replayed exactly where the
// order would have put it, provided nothing the replay sees happens between its arrival and that record's.
// What can: a loss the reader reports (the order releases everything first, so it changes nothing), the
// symbol table filling up (said at the record whose strings found no room: the batch must have room for
// every string it and the replay of its records can add), and the arena's buffers being emptied (only
// where they would have been, `handedOnSinceEmpty`).
extension ReplayCore {
    /// Says, before the records of `batch` are replayed, which of them may be handed on at once.
    mutating func begin(_ batch: RecordBatch) {
        handOnBefore = handsOn && mayHandOn(batch) ? batch.records[batch.records.count - 1].t.saturatingAdd(-order.window) : Int64.min
    }

    /// The batch has been replayed: what follows is handed on by its own batch, or not at all.
    mutating func endBatch() {
        handOnBefore = Int64.min
    }

    /// Replays `r`, taken from a batch that lets its records be handed on (`begin(_:)`), at once when it
    /// sorts after every record the order took: the records held are replayed first (they sort before it).
    /// False when it is for the order to take.
    @inline(__always)
    mutating func handOn(_ r: ReplayRecord) -> Bool {
        // Headers and expectations keep their place, and records of unknown types are held as ever.
        guard let kind = r.kind, kind != .header, order.sortsLast(r) else { return false }
        if !order.isEmpty {
            // A checkpoint replayed sooner than it would have been could intern the speakers it sets sooner.
            guard !order.holdsCheckpoint else { return false }
            releaseHeld()
        }
        order.handedOn(r)
        handedOnSinceEmpty = true
        recordsHandedOn += 1
        process(r)
        return true
    }

    /// Whether the records of `batch` may be handed on: it reports no problem, its records are in replay
    /// order (none sorts before one written ahead of it), none begins a part or sets state from a
    /// checkpoint (either may intern strings when replayed, or change how a part starts), and the symbol
    /// table has room for every string its records and the speakers the replay holds could add.
    func mayHandOn(_ batch: RecordBatch) -> Bool {
        guard batch.problems.isEmpty, !batch.records.isEmpty, awaitingStart == nil, !arena.symbols.overflowed else { return false }
        // A kind's family is asked only of records of the same time.
        var previousT = Int64.min, previousKind: RecordKind?
        for r in batch.records {
            if r.kind == .header || r.kind == .checkpoint { return false }
            if r.t <= previousT, r.t < previousT || previousKind?.family == .sdk && r.kind?.family != .sdk { return false }
            (previousT, previousKind) = (r.t, r.kind)
        }
        // Every string a record of the batch holds, and every speaker the replay holds (the quality engine
        // interns a set replaced outside an update when it next reads one).
        var strings = batch.spans.count, bytes = batch.bytes.count + TextSpan.inlineBytes * batch.spans.count
        for whole in batch.full {
            whole.body.forEachString { value, _ in
                strings += 1
                bytes += value.utf8.count
            }
            for (_, value) in whole.body.unlistedValues {
                strings += 1
                bytes += value.utf8.count
            }
        }
        for s in engines.second.state.speakers {
            strings += 2
            bytes += s.uid.utf8.count + s.trackId.utf8.count
        }
        let symbols = arena.symbols
        return symbols.count + strings + 1 < symbols.maxSymbols && symbols.byteCount + bytes < symbols.maxBytes
    }
}
