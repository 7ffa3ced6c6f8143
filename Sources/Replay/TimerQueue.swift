import Contract

/// The replay's queue of the engines' irregular timers (the windows of fixed length are deadlines the
/// engines keep, `Deadlines`), ordered by due time, and timers due at the same time in the order they were
/// asked for (contract: a timer due at or before a record's `t` fires before that record, in the order
/// set). `counter` counts the timers and deadlines set, so that the two merge in that order.
struct TimerQueue<Timer> {
    private var heap: [(due: Int64, order: Int, timer: Timer)] = []
    /// Timers and deadlines set so far: the order of the next is one more.
    var counter = 0

    /// Whether no timer waits.
    var isEmpty: Bool { heap.isEmpty }

    /// The due time of the next timer, if any.
    var nextDue: Int64? { heap.first?.due }

    /// The due time of the next timer; `Int64.max` when none waits.
    var nextDueOrMax: Int64 { heap.isEmpty ? .max : heap[0].due }

    /// The due time and order of the next timer, if any.
    var next: (due: Int64, order: Int)? { heap.first.map { ($0.due, $0.order) } }

    /// Drops every waiting timer (what they waited for is gone: a part begun without the one before it).
    mutating func removeAll() {
        heap.removeAll()
    }

    /// Drops the waiting timers `drop` picks, keeping the others in their order.
    mutating func removeAll(where drop: (Timer) -> Bool) {
        // An array sorted by due time and order is a heap.
        heap = heap.filter { !drop($0.timer) }.sorted { Self.before($0, $1) }
    }

    /// Adds a timer due at `due`.
    mutating func schedule(_ timer: Timer, due: Int64) {
        counter += 1
        heap.append((due, counter, timer))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.before(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the next timer if it is due at or before `t`.
    mutating func popDue(through t: Int64) -> (due: Int64, timer: Timer)? {
        guard let first = heap.first, first.due <= t else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, Self.before(heap[l], heap[m]) { m = l }
                if r < heap.count, Self.before(heap[r], heap[m]) { m = r }
                guard m != i else { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return (first.due, first.timer)
    }

    private static func before(_ a: (due: Int64, order: Int, timer: Timer), _ b: (due: Int64, order: Int, timer: Timer)) -> Bool {
        a.due != b.due ? a.due < b.due : a.order < b.order
    }
}
