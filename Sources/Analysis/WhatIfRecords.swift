import Replay
import TraceCodec
import TraceModel

/// A trace's records kept for a what-if's second replay, as the reader decoded them for the first: its
/// batches (a high-rate record as a replay record with its strings and lists beside it, every other
/// record whole), so that the trace is decoded once, and once as `explain` decodes it; or records given
/// whole (tests, a trace already in memory). Each record's seq, time and kind are at hand by its index;
/// a record is made whole only where it is asked for (`record(_:)`).
package struct WhatIfRecords: Sendable {
    /// The seq of each record, in trace order.
    package private(set) var seqs: [Int] = []
    /// The time of each record.
    package private(set) var times: [Int64] = []
    /// The kind of each record (nil: an expectation or a type this version does not know).
    package private(set) var kinds: [RecordKind?] = []
    /// For each record, its batch (high 32 bits) and its index there; the index in `whole` where records
    /// were given whole.
    private var places: [UInt64] = []
    private var batches: [Kept] = []
    private var whole: [Record] = []

    /// No record yet.
    package init() {}

    /// The records given whole.
    package init(_ records: [Record]) {
        whole = records
        seqs.reserveCapacity(records.count)
        times.reserveCapacity(records.count)
        kinds.reserveCapacity(records.count)
        for (i, r) in records.enumerated() {
            seqs.append(r.seq)
            times.append(r.t)
            kinds.append(r.body.kind)
            places.append(UInt64(i))
        }
    }

    /// How many records.
    package var count: Int { seqs.count }

    /// Keeps a batch the reader decoded (every record of it is replayed).
    package mutating func keep(_ batch: RecordBatch) {
        precondition(whole.isEmpty, "records are kept either whole or as batches")
        let b = UInt64(batches.count) << 32
        batches.append(Kept(batch))
        for (i, r) in batch.records.enumerated() {
            seqs.append(r.seq)
            times.append(r.t)
            kinds.append(r.kind)
            places.append(b | UInt64(i))
        }
    }

    /// Where record `i` is: its batch and index there, or nil where records were given whole.
    private func place(_ i: Int) -> (batch: Int, index: Int)? {
        guard whole.isEmpty else { return nil }
        let p = places[i]
        return (Int(p >> 32), Int(p & 0xFFFF_FFFF))
    }

    /// The body of record `i` where it is kept whole (every record of a type that is not high-rate, and
    /// every record given whole); nil for a high-rate record kept as the reader decoded it.
    package func wholeBody(_ i: Int) -> RecordBody? {
        guard let (b, j) = place(i) else { return whole[Int(places[i])].body }
        let batch = batches[b].batch, r = batch.records[j]
        return r.hasFull ? batch.full[Int(r.full)].body : nil
    }

    /// Record `i` made whole from what a replay reads of it: as the reader would have decoded it whole,
    /// except that an `sdk.log` read for a replay has no text (a replay reads none of it).
    package func record(_ i: Int) -> Record {
        guard let (b, j) = place(i) else { return whole[Int(places[i])] }
        let batch = batches[b].batch, r = batch.records[j]
        if r.hasFull { return batch.full[Int(r.full)] }
        if r.kind == .sdkLog { return Record(seq: r.seq, t: r.t, .sdkLog(level: "", message: "")) }
        // Its strings and lists taken into an arena of its own, and the record made from its fields there.
        let arena = ReplayArena()
        return arena.record(batch.take(j, into: arena))
    }

    /// Replays record `i` into `replayer` under the seq `seq` and time `t`.
    func feed(_ i: Int, into replayer: Replayer, seq: Int, t: Int64) {
        guard let (b, j) = place(i) else {
            var r = whole[Int(places[i])]
            (r.seq, r.t) = (seq, t)
            replayer.feed(r)
            return
        }
        replayer.feed(batches[b].batch, j, seq: seq, t: t)
    }

    /// Notes every record's identity on a diff's side in order (`DiffSide.note`, without making a record
    /// whole where its type's identity is read from its fields), a batch at a time (each batch taken
    /// once, not once per record); returns each record's identity there (-1: not compared).
    func noteAll(on side: inout DiffSide) -> [Int32] {
        var keyed: [Int32] = []
        keyed.reserveCapacity(count)
        guard whole.isEmpty else {
            for r in whole {
                let before = side.records.count
                side.note(r)
                keyed.append(side.records.count > before ? side.records[before].id : -1)
            }
            return keyed
        }
        var i = 0
        for kept in batches {
            let batch = kept.batch
            for r in batch.records {
                let before = side.records.count, at = i
                if r.hasFull { side.note(batch.full[Int(r.full)]) } else { side.note(compact: r, in: batch) { record(at) } }
                keyed.append(side.records.count > before ? side.records[before].id : -1)
                i += 1
            }
        }
        return keyed
    }
}

/// A batch kept for a what-if, shared by reference: a record is read from it in place, where handing
/// the batch itself on would copy it (and retain each of its lists) once per record.
private final class Kept: Sendable {
    let batch: RecordBatch
    init(_ batch: RecordBatch) { self.batch = batch }
}
