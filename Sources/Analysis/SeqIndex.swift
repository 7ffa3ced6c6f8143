/// Values by seq, as a table keyed by seq answers them: an array where seqs are dense (a trace's are
/// 0, 1, … but for its gaps), a table for the rest. A what-if looks up every record of a long trace by
/// seq several times; hashing a million seqs into a table cost more than replaying them.
struct SeqIndex: Sendable {
    /// Values of seqs 0..<dense.count (`none`: none), in 32 bits: the values are mostly indexes and seqs
    /// of the trace, and half the bytes of a million entries are that much less memory to fault in.
    private var dense: [Int32] = []
    /// Values of seqs outside the dense range when they were set, and values that do not fit in 32 bits.
    private var sparse: [Int: Int] = [:]
    /// No value in the dense range.
    private static let none = Int32.min
    /// Whether no value was ever set.
    private(set) var isEmpty = true

    /// An empty index.
    init() {}

    /// The value of `seq`, or nil; setting nil removes it.
    subscript(seq: Int) -> Int? {
        get {
            if seq >= 0, seq < dense.count, dense[seq] != Self.none { return Int(dense[seq]) }
            return sparse.isEmpty ? nil : sparse[seq]
        }
        set {
            if newValue != nil { isEmpty = false }
            // The common case, a seq in the dense range set to a value that fits: one store (a trace's seqs
            // are set once each, a million times over).
            if seq >= 0, seq < dense.count, let value = newValue, let small = Int32(exactly: value), small != Self.none {
                dense[seq] = small
                if !sparse.isEmpty { sparse[seq] = nil }
                return
            }
            if seq >= 0, seq < dense.count || seq <= 2 * dense.count + 4096 {
                // The next seq grows the range by one (no sequence of one built and appended).
                if seq == dense.count {
                    dense.append(Self.none)
                } else if seq > dense.count {
                    dense.append(contentsOf: repeatElement(Self.none, count: seq + 1 - dense.count))
                }
                if let value = newValue, let small = Int32(exactly: value), small != Self.none {
                    dense[seq] = small
                    // A seq set while outside the dense range lives in the table until it is set again.
                    if !sparse.isEmpty { sparse[seq] = nil }
                } else {
                    dense[seq] = Self.none
                    if newValue != nil || !sparse.isEmpty { sparse[seq] = newValue }
                }
            } else {
                sparse[seq] = newValue
            }
        }
    }

    /// Makes room at once for the seqs of `count` records up to `seq` (a trace's, known before they are
    /// set), so that the array is not grown and copied as they are; what the index answers is the same.
    /// Seqs far beyond the count (a damaged trace's) get no room: they may never be dense.
    mutating func reserve(through seq: Int, count: Int) {
        guard seq >= 0, seq <= 2 * count + 4096 else { return }
        // The range filled with `none` at once where nothing is set yet (a value is where it was set, dense
        // or in the table, either way the same answer), so that each seq set later is one store.
        if dense.isEmpty, sparse.isEmpty {
            dense = Array(repeating: Self.none, count: seq + 1)
        } else {
            dense.reserveCapacity(seq + 1)
        }
    }

    /// Whether `seq` has a value.
    func contains(_ seq: Int) -> Bool { self[seq] != nil }
}
