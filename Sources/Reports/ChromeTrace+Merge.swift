import Replay
import TraceModel

extension ChromeTrace {
    /// Events of one kind on one track, made one at a time: `key(i)` orders them (time, then the order
    /// within the track) and `event(i)` makes the `i`th when it is written.
    struct Source {
        let tid: Int
        let count: Int
        let key: (Int) -> (ts: Int64, order: Int)
        let event: (Int) -> Event

        init(tid: Int, count: Int, key: @escaping (Int) -> (ts: Int64, order: Int), event: @escaping (Int) -> Event) {
            self.tid = tid
            self.count = count
            self.key = key
            self.event = event
        }
    }

    /// What writing the export did.
    package struct Written: Sendable {
        /// Bytes written.
        package var bytes = 0
        /// Events left out because the output reached its budget.
        package var eventsNotExported = 0
    }

    /// How large an export may grow: `budgetBase` plus `budgetPerInputByte` times the bytes of JSON Lines
    /// the replay read. Events beyond it are left out (counted in `otherData.eventsNotExported`), so the
    /// file stays proportional to its input whatever the input makes the lanes say.
    package static let budgetBase = 1 << 20
    package static let budgetPerInputByte = 16

    /// The budget for an export of `r` (`budgetBase` + `budgetPerInputByte` × its input's bytes).
    package static func budget(for r: ReplayResult) -> Int {
        Int(Int64(budgetBase).saturatingAdd(Int64(r.inputBytes).saturatingMultiply(Int64(budgetPerInputByte))))
    }

    /// Writes the export to `sink` in chunks of about 64 KiB, events in the order `render` gives (by
    /// time, then track, then the order within the track; ties keep the order of `sources`), and stops
    /// adding events once `budget` bytes are written (nil: no budget). Memory is one event and one chunk
    /// beyond what the observer and the result hold.
    @discardableResult
    package static func write<Failure: Error>(_ r: ReplayResult, observer: ChromeTraceObserver, budget: Int?,
                                             to sink: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) -> Written {
        let lanes = observer.lanes.lanes(for: r)
        var written = Written()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        func flush() throws(Failure) {
            guard !buffer.isEmpty else { return }
            // Array's closure APIs are not typed-throws: the sink's error comes out as a Result.
            try buffer.withUnsafeBytes { p in Result { () throws(Failure) in try sink(p) } }.get()
            buffer.removeAll(keepingCapacity: true)
        }
        func append(_ bytes: some Collection<UInt8>) throws(Failure) {
            written.bytes += bytes.count
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 16 { try flush() }
        }
        var w = JSONWriter(reserving: 4096)
        var first = true
        func emit(_ e: Event, budgeted: Bool) throws(Failure) {
            w.reset()
            event(e, &w)
            // Room is kept for the closing `otherData`.
            if budgeted, let budget, written.bytes + w.bytes.count + 1024 > budget {
                written.eventsNotExported += 1
                return
            }
            if !first { try append(CollectionOfOne(UInt8(ascii: ","))) }
            first = false
            try append(w.bytes)
        }
        try append("{\"traceEvents\":[".utf8)
        for e in metadata(r, lanes) { try emit(e, budgeted: false) }
        let all = sources(r, observer, lanes)
        // Each source's positions in its own order: most are in order already, the others are sorted
        // once (stable, so ties keep their order as one stable sort of every event would).
        let orders: [[Int]?] = all.map { s in
            let inOrder = s.count < 2 || (1..<s.count).allSatisfy { s.key($0 - 1) <= s.key($0) }
            return inOrder ? nil : (0..<s.count).sorted { (s.key($0).ts, s.key($0).order, $0) < (s.key($1).ts, s.key($1).order, $1) }
        }
        var next = [Int](repeating: 0, count: all.count)
        var heap = MergeHeap()
        func key(_ k: Int) -> MergeHeap.Key {
            let (ts, order) = all[k].key(orders[k]?[next[k]] ?? next[k])
            return MergeHeap.Key(ts: ts, tid: all[k].tid, order: order, source: k)
        }
        for k in all.indices where all[k].count > 0 { heap.push(key(k)) }
        while let top = heap.pop() {
            let k = top.source
            try emit(all[k].event(orders[k]?[next[k]] ?? next[k]), budgeted: true)
            next[k] += 1
            if next[k] < all[k].count { heap.push(key(k)) }
        }
        w.reset()
        otherData(r, observer, eventsNotExported: written.eventsNotExported, &w)
        try append("],".utf8)
        // The object's members without its opening brace: they close the document's object.
        try append(w.bytes.dropFirst())
        try append("\n".utf8)
        try flush()
        return written
    }
}

/// A min-heap of the next event of each source, by time, track, order within the track, then source.
struct MergeHeap {
    struct Key: Comparable {
        let ts: Int64
        let tid: Int
        let order: Int
        let source: Int
        static func < (a: Key, b: Key) -> Bool { (a.ts, a.tid, a.order, a.source) < (b.ts, b.tid, b.order, b.source) }
    }

    private var items: [Key] = []

    mutating func push(_ k: Key) {
        items.append(k)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Key? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count && items[l] < items[m] { m = l }
            if r < items.count && items[r] < items[m] { m = r }
            guard m != i else { return top }
            items.swapAt(i, m)
            i = m
        }
    }
}
