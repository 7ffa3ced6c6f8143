import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// Drives a trace through both engines on a virtual clock and compares them with what the device did.
///
/// Timers the engines ask for are delivered at their due time, before any record at or after it.
/// Memory stays bounded: verdicts, divergences and findings are kept (findings up to a cap), the
/// timeline is kept up to a cap, and nothing else grows with the trace. The replay itself is a value
/// (`ReplayCore`) this object holds and drives in place.
package final class Replayer {
    /// The options in force.
    package let options: ReplayOptions
    var core: ReplayCore

    /// Creates a replayer for the trace at `file` (used only to name it in results).
    package init(file: String, options: ReplayOptions = ReplayOptions()) {
        self.options = options
        core = ReplayCore(file: file, options: options, arena: ReplayArena(symbols: SymbolTable(maxSymbols: options.maxDistinctStrings)))
    }

    /// Creates a replayer that uses `arena`, empty (`ReplayArena.clear`), with the options' symbol limit.
    init(file: String, options: ReplayOptions, arena: ReplayArena) {
        self.options = options
        core = ReplayCore(file: file, options: options, arena: arena)
    }

    /// Called after each record or timer with what it changed (for `rtctrace replay`); nil keeps replay fast.
    package var observer: ((ReplayStep) -> Void)? {
        get { core.observer }
        set { core.observer = newValue }
    }

    /// What the records being replayed refer to, and the replay's strings.
    package var arena: ReplayArena { core.arena }

    /// The route engine, as of the last record.
    package var route: RouteEngine { core.engines.first }
    /// The quality engine, as of the last record.
    package var quality: QualityEngine { core.engines.second }

    /// Replays one record. Within one ms, every `sdk.*` record is taken after the other records of that ms
    /// (contract v3: an SDK callback or event answers what the system and the app did in the same ms);
    /// `expect.*` records keep their place, so the `sdk.*` records before one are taken before it.
    package func feed(_ record: Record) {
        core.feed(core.arena.take(record))
    }

    /// Replays record `i` of a batch the reader filled (`RecordBatch.take(_:into:)`).
    func feed(_ batch: RecordBatch, _ i: Int) {
        core.feed(batch.take(i, into: core.arena))
    }

    /// Says, before the records of `batch` are replayed (`feed(_:_:)`, in order), which of them may be handed
    /// on past the ordering stage at once (`ReplayCore.handOn`); `endBatch()` once they have been.
    package func begin(_ batch: RecordBatch) { core.begin(batch) }

    /// The records of the batch `begin(_:)` named have been replayed.
    package func endBatch() { core.endBatch() }

    /// Replays record `i` of a batch kept from a reading, under another seq and time (a what-if's edited
    /// trace, numbered afresh): a record read whole is replayed as a copy with them.
    package func feed(_ batch: RecordBatch, _ i: Int, seq: Int, t: Int64) {
        let kept = batch.records[i]
        if kept.hasFull {
            var whole = batch.full[Int(kept.full)]
            (whole.seq, whole.t) = (seq, t)
            feed(whole)
            return
        }
        var r = batch.take(i, into: core.arena)
        (r.seq, r.t) = (seq, t)
        core.feed(r)
    }

    /// Runs end-of-trace diagnostics and `"at":"end"` expectations; returns the result. `end` says whether
    /// the trace ended at its last record or at a crash (its last frame torn, or never closed).
    package func finish(end: TraceEnd = .end) -> ReplayResult {
        core.finish(end: end)
    }

    /// The verdict on the call with this seq, if it was replayed.
    package func verdict(for seq: Int) -> Verdict? { core.builder.verdict(for: seq) }

    /// Records were lost just before the next record (`seqs` when the reader could tell them), X5: the
    /// reader reports it between the records around the loss.
    package func lost(seqs: ClosedRange<Int>?, cause: LossCause) { core.lost(seqs: seqs, cause: cause) }
}
