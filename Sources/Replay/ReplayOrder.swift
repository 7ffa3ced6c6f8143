import TraceModel

/// The order a replay takes records in: time order, with records marked `late` (trace format version 4:
/// made at their `t`, written after records with a later one, at most the match window back) put before
/// the later records written ahead of them, and within one ms every `sdk.*` record after the other records
/// of its ms (contract v3: an SDK callback or event answers what the system and the app did in that ms).
/// Equal keys keep the order of writing, and seqs stay as written. `expect.*` records and headers keep
/// their place: every record held is taken before one. A stage of its own in front of the driver (as
/// Perfetto's sorter stands in front of its parsers): it holds the records of the last match window,
/// trivially copyable, and says which records are due, in replay order.
struct ReplayOrder {
    /// The most records held at once: a window with more (only a hostile trace has one) hands them on, those
    /// held so far first, so what waits stays bounded.
    static let heldCap = 4_096

    /// How long (ms) a record is held: a late record goes back at most this far (`Record.lateWindow`).
    let window: Int64

    /// A record held, with whether it is an `sdk.*` record: its key, asked once (not at every comparison).
    private struct Held {
        var record: ReplayRecord
        var sdk: Bool
    }

    /// The records held, `head..<end`, in replay order; those before `due` are due now. Slots from `end` on
    /// are stale: the storage is reused in place (every record passes through it), never emptied or grown
    /// but to a new high-water mark.
    private var held: [Held] = []
    private var head = 0, due = 0, end = 0
    /// The latest `t` taken.
    private var latestT = Int64.min
    /// The key of the last record made due, as its time and kind (whether it is an `sdk.*` record is asked
    /// only of a record of the same time): a record that sorts before it (a late record after everything
    /// it belongs before was handed on) is replayed where it was written.
    private var releasedKey: (t: Int64, kind: RecordKind?)?

    init(window: Int64 = Record.lateWindow) { self.window = window }

    /// Whether no record is held or due (nothing refers to the arena's buffers but the record in hand).
    var isEmpty: Bool { head == end }

    /// Whether `r` sorts after every record taken so far, those held and those made due: taken, it would be
    /// held behind all of them. Its kind's family is asked only when its time is the latest.
    func sortsLast(_ r: ReplayRecord) -> Bool {
        r.t > latestT || r.t == latestT && r.kind?.family == .sdk
    }

    /// Whether a checkpoint is held (replaying one may intern strings: see `ReplayCore.handOn`).
    var holdsCheckpoint: Bool {
        var i = head
        while i < end {
            if held[i].record.kind == .checkpoint { return true }
            i += 1
        }
        return false
    }

    /// Takes `r`, which `sortsLast`, as replayed at once, after every record held was made due: the order's
    /// clock and the key of the last record made due are what taking it and making it due would have left.
    mutating func handedOn(_ r: ReplayRecord) {
        latestT = r.t
        releasedKey = (r.t, r.kind)
    }

    /// Takes `r` (`isBarrier`: an `expect.*` record or a header): true when it is to be replayed now, after
    /// the records it makes due (`nextDue`); false when it is held.
    mutating func take(_ r: ReplayRecord, isBarrier: Bool) -> Bool {
        if isBarrier {
            releaseAll()
            return true
        }
        let sdk = r.kind?.family == .sdk
        if let k = releasedKey, r.t < k.t || r.t == k.t && !sdk && k.kind?.family == .sdk { return true }
        if end - head >= Self.heldCap { releaseAll() }
        insert(Held(record: r, sdk: sdk))
        if r.t > latestT { latestT = r.t }
        // What is older than the window cannot have a late record put before it any more.
        let cutoff = latestT < Int64.min + window ? Int64.min : latestT - window
        var last = due
        while last < end, held[last].record.t < cutoff { last += 1 }
        makeDue(through: last)
        return false
    }

    /// Makes every record held due.
    mutating func releaseAll() { makeDue(through: end) }

    /// The next record due, in replay order.
    mutating func nextDue() -> ReplayRecord? {
        guard head < due else { return nil }
        let r = held[head].record
        head += 1
        if head == end {
            (head, due, end) = (0, 0, 0)
        } else if head >= Self.heldCap, head * 2 >= end {
            // A dense trace always holds a window: what was handed on is dropped now and then, so the
            // storage holds about a window, not the whole trace.
            var i = head
            while i < end {
                held[i - head] = held[i]
                i += 1
            }
            due -= head
            end -= head
            head = 0
        }
        return r
    }

    /// Whether key (`t`, `sdk`) sorts strictly before key (`u`, `usdk`).
    private static func before(_ t: Int64, _ sdk: Bool, _ u: Int64, _ usdk: Bool) -> Bool {
        t < u || t == u && !sdk && usdk
    }

    /// Puts `h` after every held record not due whose key is not after its own (stable): at the end, unless
    /// it is late or an other record of a ms whose `sdk.*` records are held.
    private mutating func insert(_ h: Held) {
        var i = end
        while i > due, Self.before(h.record.t, h.sdk, held[i - 1].record.t, held[i - 1].sdk) { i -= 1 }
        if end == held.count { held.append(h) } else { held[end] = h }
        if i < end {
            var j = end
            while j > i {
                held[j] = held[j - 1]
                j -= 1
            }
            held[i] = h
        }
        end += 1
    }

    private mutating func makeDue(through last: Int) {
        guard last > due else { return }
        releasedKey = (held[last - 1].record.t, held[last - 1].record.kind)
        due = last
    }
}
