extension RandomAccessCollection where Index == Int {
    /// The first index of `range` whose element is not `before` the one sought, in elements ordered so that
    /// `before` holds for a prefix of them and for none after (`range.upperBound` when it holds for every
    /// one): found by halving, with no scan. The engines' ordered queues and the result's verdicts use it.
    @inlinable
    package func partitionPoint(in range: Range<Int>, where before: (Element) -> Bool) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = low + (high - low) / 2
            if before(self[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
