import TraceModel

/// The order a replay takes the records of one ms in (contract v3): every `sdk.*` record after the other
/// records of its ms, since an SDK callback or event answers what the system and the app did in that ms;
/// `expect.*` records keep their place, so the `sdk.*` records before one are taken before it. A stage of
/// its own in front of the driver (as Perfetto's sorter stands in front of its parsers): it holds the
/// `sdk.*` records of the current ms, trivially copyable, and says which records are due, in replay order.
struct ReplayOrder {
    /// The most `sdk.*` records held at once: a ms with more (only a hostile trace has one) hands them on in
    /// batches, those held so far first, so what waits stays bounded.
    static let heldCap = 4_096

    /// The records held, from `head`; those before `due` are due now.
    private var held: [ReplayRecord] = []
    private var head = 0, due = 0
    private var heldT: Int64 = -1

    /// Whether no record is held or due (nothing refers to the arena's buffers but the record in hand).
    var isEmpty: Bool { head == held.count }

    /// Takes `r` (`isExpectation`: an `expect.*` record): true when it is to be replayed now, after the
    /// records it makes due (`nextDue`); false when it is held.
    mutating func take(_ r: ReplayRecord, isExpectation: Bool) -> Bool {
        if r.t != heldT { releaseAll() }
        if r.kind?.family == .sdk {
            if held.count - head >= Self.heldCap { releaseAll() }
            heldT = r.t
            held.append(r)
            return false
        }
        if isExpectation { releaseAll() }
        return true
    }

    /// Makes every record held due.
    mutating func releaseAll() { due = held.count }

    /// The next record due, in replay order.
    mutating func nextDue() -> ReplayRecord? {
        guard head < due else { return nil }
        let r = held[head]
        head += 1
        if head == held.count {
            held.removeAll(keepingCapacity: true)
            head = 0
            due = 0
        }
        return r
    }
}
