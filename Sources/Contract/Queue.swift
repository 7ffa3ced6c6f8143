/// A first-in, first-out list whose `removeFirst` costs O(1) (amortised): the engines' lists of what waits
/// for an answer in time order (derived snapshots, level changes) are trimmed at the front on every record.
public struct Queue<Element> {
    private var items: [Element] = []
    private var head = 0

    /// Creates an empty queue.
    public init() {}

    /// The number of waiting elements.
    public var count: Int { items.count - head }
    /// Whether nothing waits.
    public var isEmpty: Bool { head == items.count }
    /// The oldest element.
    public var first: Element? { head < items.count ? items[head] : nil }

    /// Adds an element at the back.
    public mutating func append(_ e: Element) { items.append(e) }

    /// Removes and returns the oldest element (the queue must not be empty).
    @discardableResult
    public mutating func removeFirst() -> Element {
        let e = items[head]
        head += 1
        compactIfSparse()
        return e
    }

    /// Removes and returns the first element that satisfies `predicate`, searching from the oldest.
    public mutating func remove(firstWhere predicate: (Element) -> Bool) -> Element? {
        guard let i = items[head...].firstIndex(where: predicate) else { return nil }
        if i == head { return removeFirst() }
        return items.remove(at: i)
    }

    /// Removes every element that satisfies `predicate`.
    public mutating func removeAll(where predicate: (Element) -> Bool) {
        items.removeSubrange(..<head)
        head = 0
        items.removeAll(where: predicate)
    }

    /// Removes everything.
    public mutating func removeAll() {
        items.removeAll()
        head = 0
    }

    private mutating func compactIfSparse() {
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= items.count {
            items.removeSubrange(..<head)
            head = 0
        }
    }
}

extension Queue: Sequence {
    public func makeIterator() -> ArraySlice<Element>.Iterator { items[head...].makeIterator() }
}

extension Queue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { items = elements }
}

extension Queue: Equatable where Element: Equatable {
    public static func == (a: Queue, b: Queue) -> Bool { a.items[a.head...].elementsEqual(b.items[b.head...]) }
}

extension Queue: Sendable where Element: Sendable {}
