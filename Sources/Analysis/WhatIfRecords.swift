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
    /// The index of each kept batch's first record (in order), where a record's batch is found: a
    /// record's place is not stored per record (a million of them are 8 MB to fault in).
    private var starts: [Int] = []
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
        for r in records {
            seqs.append(r.seq)
            times.append(r.t)
            kinds.append(r.body.kind)
        }
    }

    /// How many records.
    package var count: Int { seqs.count }

    /// Keeps a batch the reader decoded (every record of it is replayed).
    package mutating func keep(_ batch: RecordBatch) {
        precondition(whole.isEmpty, "records are kept either whole or as batches")
        starts.append(count)
        batches.append(Kept(batch))
        for r in batch.records {
            seqs.append(r.seq)
            times.append(r.t)
            kinds.append(r.kind)
        }
    }

    /// Where record `i` is: its batch and index there, or nil where records were given whole.
    private func place(_ i: Int) -> (batch: Int, index: Int)? {
        guard whole.isEmpty else { return nil }
        // The last batch starting at or before `i`.
        var low = 0, high = starts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if starts[mid] <= i { low = mid } else { high = mid }
        }
        return (low, i - starts[low])
    }

    /// The body of record `i` where it is kept whole (every record of a type that is not high-rate, and
    /// every record given whole); nil for a high-rate record kept as the reader decoded it.
    package func wholeBody(_ i: Int) -> RecordBody? {
        guard let (b, j) = place(i) else { return whole[i].body }
        let batch = batches[b].batch, r = batch.records[j]
        return r.hasFull ? batch.full[Int(r.full)].body : nil
    }

    /// Record `i` made whole from what a replay reads of it: as the reader would have decoded it whole,
    /// except that an `sdk.log` read for a replay has no text (a replay reads none of it).
    package func record(_ i: Int) -> Record {
        guard let (b, j) = place(i) else { return whole[i] }
        return Self.record(j, of: batches[b].batch)
    }

    /// Record `j` of a batch made whole (`record(_:)`).
    static func record(_ j: Int, of batch: RecordBatch) -> Record {
        let r = batch.records[j]
        if r.hasFull { return batch.full[Int(r.full)] }
        if r.kind == .sdkLog { return Record(seq: r.seq, t: r.t, .sdkLog(level: "", message: "")) }
        // Its strings and lists taken into an arena of its own, and the record made from its fields there.
        let arena = ReplayArena()
        return arena.record(batch.take(j, into: arena))
    }

    /// The batch replayed from last (`feed`): records are mostly replayed in the order they were read,
    /// so the batch of the next is mostly this one, taken from its keeper once rather than once per record
    /// (each taking retains every list of the batch).
    struct Cursor {
        var start = 0, end = 0
        var records = RecordBatch()
    }

    /// Replays record `i` into `replayer` under the seq `seq` and time `t`; `cursor` holds the batch read
    /// from last.
    func feed(_ i: Int, into replayer: Replayer, seq: Int, t: Int64, cursor: inout Cursor) {
        guard whole.isEmpty else {
            var r = whole[i]
            (r.seq, r.t) = (seq, t)
            replayer.feed(r)
            return
        }
        if i < cursor.start || i >= cursor.end, let (b, _) = place(i) {
            cursor.start = starts[b]
            cursor.end = b + 1 < starts.count ? starts[b + 1] : count
            cursor.records = batches[b].batch
        }
        replayer.feed(cursor.records, i - cursor.start, seq: seq, t: t)
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
        for kept in batches {
            let batch = kept.batch
            for j in batch.records.indices { keyed.append(side.note(j, of: batch)) }
        }
        return keyed
    }
}

extension DiffSide {
    /// Notes record `j` of a batch as the reader decoded it (`note`, or `note(compact:)` without making it
    /// whole where its type's identity is read from its fields); returns its identity (-1: not compared).
    mutating func note(_ j: Int, of batch: RecordBatch) -> Int32 {
        let r = batch.records[j], before = records.count
        if r.hasFull { note(batch.full[Int(r.full)]) } else { note(compact: r, in: batch) { WhatIfRecords.record(j, of: batch) } }
        return records.count > before ? records[before].id : -1
    }
}

/// A batch kept for a what-if, shared by reference: a record is read from it in place, where handing
/// the batch itself on would copy it (and retain each of its lists) once per record.
private final class Kept: Sendable {
    let batch: RecordBatch
    init(_ batch: RecordBatch) { self.batch = batch }
}
