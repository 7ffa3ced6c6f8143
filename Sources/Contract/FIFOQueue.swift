/// A first-in, first-out list whose `removeFirst` costs O(1) (amortised): the engines' lists of what waits
/// for an answer in time order (derived snapshots, level changes, deadlines) are trimmed at the front on
/// every record. Inlinable, so that the engines' uses are specialised for their element types.
@usableFromInline package struct FIFOQueue<Element> {
    @usableFromInline var items: [Element] = []
    @usableFromInline var head = 0

    /// Creates an empty queue.
    @inlinable
    package init() {}

    /// The number of waiting elements.
    @inlinable
    package var count: Int { items.count - head }
    /// Whether nothing waits.
    @inlinable
    package var isEmpty: Bool { head == items.count }
    /// The oldest element.
    @inlinable
    package var first: Element? { head < items.count ? items[head] : nil }
    /// The newest element.
    @inlinable
    package var last: Element? { head < items.count ? items[items.count - 1] : nil }

    /// Adds an element at the back.
    @inlinable
    package mutating func append(_ e: Element) { items.append(e) }

    /// Removes and returns the oldest element (the queue must not be empty).
    @inlinable
    @discardableResult
    package mutating func removeFirst() -> Element {
        let e = items[head]
        head += 1
        compactIfSparse()
        return e
    }

    /// Removes and returns the first element that satisfies `predicate`, searching from the oldest.
    @inlinable
    package mutating func remove(firstWhere predicate: (Element) -> Bool) -> Element? {
        guard let i = items[head...].firstIndex(where: predicate) else { return nil }
        if i == head { return removeFirst() }
        return items.remove(at: i)
    }

    /// Removes and returns the element whose `key` is `value`, in a queue whose elements are in increasing
    /// order of `key` (found by halving, not by a scan).
    @inlinable
    @inline(__always)
    package mutating func remove<Key: Comparable>(key: (Element) -> Key, equalTo value: Key) -> Element? {
        // Nearly always the element sought is the oldest, or is gone and the oldest comes after it.
        guard head < items.count else { return nil }
        let oldest = key(items[head])
        if oldest == value { return removeFirst() }
        if value < oldest { return nil }
        let i = items.partitionPoint(in: head + 1..<items.count) { key($0) < value }
        guard i < items.count, key(items[i]) == value else { return nil }
        return items.remove(at: i)
    }

    /// Removes every element that satisfies `predicate`.
    @inlinable
    package mutating func removeAll(where predicate: (Element) -> Bool) {
        items.removeSubrange(..<head)
        head = 0
        items.removeAll(where: predicate)
    }

    /// Removes everything.
    @inlinable
    package mutating func removeAll() {
        items.removeAll()
        head = 0
    }

    /// Drops the removed elements at the front once they are at least 64 and at least half the array: a
    /// queue that empties on most removals is not cleared on each (at most 63 removed elements wait). The
    /// test is inlined where an element is removed; the rare compaction is a call.
    @inlinable
    @inline(__always)
    mutating func compactIfSparse() {
        if head >= 64 && head * 2 >= items.count { compact() }
    }

    /// Drops the removed elements at the front.
    @inlinable
    @inline(never)
    mutating func compact() {
        if head == items.count { items.removeAll(keepingCapacity: true) } else { items.removeSubrange(..<head) }
        head = 0
    }
}

extension FIFOQueue: Sequence {
    @inlinable
    package func makeIterator() -> ArraySlice<Element>.Iterator { items[head...].makeIterator() }
}

extension FIFOQueue: ExpressibleByArrayLiteral {
    @inlinable
    package init(arrayLiteral elements: Element...) { items = elements }
}

extension FIFOQueue: Equatable where Element: Equatable {
    @inlinable
    package static func == (a: FIFOQueue, b: FIFOQueue) -> Bool { a.items[a.head...].elementsEqual(b.items[b.head...]) }
}

extension FIFOQueue: Sendable where Element: Sendable {}
