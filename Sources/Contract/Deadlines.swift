/// The deadlines of an engine's windows of fixed length, in the order they fall due: a window that opens
/// later closes later, so the deadlines of a trace whose time only goes forward arrive in due order and
/// wait in a first-in, first-out list (no heap, no timer per window). A deadline set before the last one
/// (time went back in a damaged trace) waits in a small heap beside it, so the order stays exact.
///
/// Deadlines due at the same time close in the order they were set, as the driver's timers do: each
/// carries the driver's count of timers and deadlines set so far (`OutputSink.nextOrder()`).
@usableFromInline package struct Deadlines<Kind>: Sendable where Kind: Sendable {
    /// A deadline: when it falls due, its place among the timers and deadlines set, and what it closes.
    @usableFromInline package struct Entry: Sendable {
        /// When it falls due.
        @usableFromInline package var due: Int64
        /// Its place in the order timers and deadlines were set.
        @usableFromInline package var order: Int
        /// What it closes.
        @usableFromInline package var kind: Kind

        /// Creates a deadline.
        @inlinable
        package init(due: Int64, order: Int, kind: Kind) {
            self.due = due
            self.order = order
            self.kind = kind
        }
    }

    @usableFromInline var inOrder = FIFOQueue<Entry>()
    @usableFromInline var late: [Entry] = []

    /// No deadline.
    @inlinable
    package init() {}

    /// Whether no deadline waits.
    @inlinable
    package var isEmpty: Bool { inOrder.isEmpty && late.isEmpty }

    /// The number of waiting deadlines.
    @inlinable
    package var count: Int { inOrder.count + late.count }

    /// When the next deadline falls due, and its order.
    @inlinable
    package var next: (due: Int64, order: Int)? {
        guard let e = nextEntry else { return nil }
        return (e.due, e.order)
    }

    /// When the next deadline falls due; `Int64.max` when none waits (read without copying a deadline).
    @inlinable
    package var nextDue: Int64 {
        let a = inOrder.isEmpty ? Int64.max : inOrder.items[inOrder.head].due
        return late.isEmpty ? a : min(a, late[0].due)
    }

    @inlinable
    var nextEntry: Entry? {
        switch (inOrder.first, late.first) {
        case (let a?, let b?): Self.before(b, a) ? b : a
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    /// Adds a deadline.
    @inlinable
    package mutating func add(_ kind: Kind, due: Int64, order: Int) {
        let e = Entry(due: due, order: order, kind: kind)
        if let last = inOrder.last, Self.before(e, last) {
            pushLate(e)
        } else {
            inOrder.append(e)
        }
    }

    /// Removes and returns the next deadline if it is due at or before `t`.
    @inlinable
    package mutating func popDue(through t: Int64) -> Entry? {
        guard let e = nextEntry, e.due <= t else { return nil }
        if let first = inOrder.first, first.order == e.order, first.due == e.due {
            inOrder.removeFirst()
        } else {
            popLate()
        }
        return e
    }

    /// Drops every deadline.
    @inlinable
    package mutating func removeAll() {
        inOrder.removeAll()
        late.removeAll()
    }

    @inlinable
    static func before(_ a: Entry, _ b: Entry) -> Bool { a.due != b.due ? a.due < b.due : a.order < b.order }

    @usableFromInline
    mutating func pushLate(_ e: Entry) {
        late.append(e)
        var i = late.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.before(late[i], late[parent]) else { break }
            late.swapAt(i, parent)
            i = parent
        }
    }

    @usableFromInline
    mutating func popLate() {
        let last = late.removeLast()
        guard !late.isEmpty else { return }
        late[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < late.count, Self.before(late[l], late[m]) { m = l }
            if r < late.count, Self.before(late[r], late[m]) { m = r }
            guard m != i else { break }
            late.swapAt(i, m)
            i = m
        }
    }
}
