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

    /// The records held, from `head`, in replay order; those before `due` are due now.
    private var held: [ReplayRecord] = []
    private var head = 0, due = 0
    /// The latest `t` taken.
    private var latestT = Int64.min
    /// The key of the last record made due: a record that sorts before it (a late record after everything
    /// it belongs before was handed on) is replayed where it was written.
    private var releasedKey: (t: Int64, sdk: Bool)?

    init(window: Int64 = Record.lateWindow) { self.window = window }

    /// Whether no record is held or due (nothing refers to the arena's buffers but the record in hand).
    var isEmpty: Bool { head == held.count }

    /// Takes `r` (`isBarrier`: an `expect.*` record or a header): true when it is to be replayed now, after
    /// the records it makes due (`nextDue`); false when it is held.
    mutating func take(_ r: ReplayRecord, isBarrier: Bool) -> Bool {
        if isBarrier {
            releaseAll()
            return true
        }
        let sdk = r.kind?.family == .sdk
        if let k = releasedKey, Self.before(r.t, sdk, k.t, k.sdk) { return true }
        if held.count - head >= Self.heldCap { releaseAll() }
        insert(r, sdk: sdk)
        if r.t > latestT { latestT = r.t }
        // What is older than the window cannot have a late record put before it any more.
        let cutoff = latestT < Int64.min + window ? Int64.min : latestT - window
        var end = due
        while end < held.count, held[end].t < cutoff { end += 1 }
        makeDue(through: end)
        return false
    }

    /// Makes every record held due.
    mutating func releaseAll() { makeDue(through: held.count) }

    /// The next record due, in replay order.
    mutating func nextDue() -> ReplayRecord? {
        guard head < due else { return nil }
        let r = held[head]
        head += 1
        if head == held.count {
            held.removeAll(keepingCapacity: true)
            head = 0
            due = 0
        } else if head >= Self.heldCap, head * 2 >= held.count {
            // A dense trace always holds a window: what was handed on is dropped now and then, so the
            // array holds about a window, not the whole trace.
            held.removeFirst(head)
            due -= head
            head = 0
        }
        return r
    }

    /// Whether key (`t`, `sdk`) sorts strictly before key (`u`, `usdk`).
    private static func before(_ t: Int64, _ sdk: Bool, _ u: Int64, _ usdk: Bool) -> Bool {
        t < u || t == u && !sdk && usdk
    }

    /// Puts `r` after every held record not due whose key is not after its own (stable): at the end, unless
    /// it is late or an other record of a ms whose `sdk.*` records are held.
    private mutating func insert(_ r: ReplayRecord, sdk: Bool) {
        var i = held.count
        while i > due, Self.before(r.t, sdk, held[i - 1].t, held[i - 1].kind?.family == .sdk) { i -= 1 }
        if i == held.count { held.append(r) } else { held.insert(r, at: i) }
    }

    private mutating func makeDue(through end: Int) {
        guard end > due else { return }
        let last = held[end - 1]
        releasedKey = (last.t, last.kind?.family == .sdk)
        due = end
    }
}
