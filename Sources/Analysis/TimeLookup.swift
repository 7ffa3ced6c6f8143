/// "The last item at or before t" and "the first item at or before t" over a list kept in its own order,
/// answered in O(log n) after one pass: what an explanation asks once per kept item (the actual route when
/// a call came, the finding that explains it, the reconnect before a finding). The answers are those of a
/// linear scan in the list's order (`last { $0.t <= t }`, `first { $0.t <= t }`) whether or not the
/// times are sorted: a replay's times are, but a trace whose time goes back is still replayed.
struct LastAtOrBefore: Sendable {
    /// `suffixMin[i]`: the smallest time from item i to the end (non-decreasing in i).
    private let suffixMin: [Int64]

    /// Indexes the items' times, in the list's order.
    init(_ times: [Int64]) {
        var mins = times
        var i = mins.count - 1
        while i > 0 {
            mins[i - 1] = min(mins[i - 1], mins[i])
            i -= 1
        }
        suffixMin = mins
    }

    /// The index of the last item whose time is at or before `t`: the last i whose suffix minimum is.
    func index(atOrBefore t: Int64) -> Int? {
        var lo = 0, hi = suffixMin.count  // the answer is lo - 1 once every i < lo has suffixMin[i] <= t
        while lo < hi {
            let mid = (lo + hi) / 2
            if suffixMin[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }
}

/// The first item at or before t, over a list in its own order (see `LastAtOrBefore`).
struct FirstAtOrBefore: Sendable {
    /// `prefixMin[i]`: the smallest time of items 0...i (non-increasing in i).
    private let prefixMin: [Int64]

    /// Indexes the items' times, in the list's order.
    init(_ times: [Int64]) {
        var mins = times
        for i in mins.indices.dropFirst() { mins[i] = min(mins[i], mins[i - 1]) }
        prefixMin = mins
    }

    /// The index of the first item whose time is at or before `t`: where the prefix minimum first is.
    func index(atOrBefore t: Int64) -> Int? {
        var lo = 0, hi = prefixMin.count  // the first i with prefixMin[i] <= t, or count for none
        while lo < hi {
            let mid = (lo + hi) / 2
            if prefixMin[mid] <= t { hi = mid } else { lo = mid + 1 }
        }
        return lo == prefixMin.count ? nil : lo
    }
}

/// The items whose span `t ± slack` meets a window `from...to`, in the list's own order: what the system
/// log's evidence asks once per finding and interruption. Sorted by time once, each question looks only at
/// the items within the window widened by the largest slack, so an explanation of many findings over a
/// long imported log costs the same per finding at any size. The answers are those of the linear filter
/// (`indices.filter { t + slack >= from && t - slack <= to }`), sorted or not.
struct OverlappingSpans: Sendable {
    /// The items' times and slacks, in the list's order.
    private let times: [Int64], slacks: [Int64]
    /// The item indices by time (ties in list order).
    private let byTime: [Int]
    /// The largest slack: how far outside a window an item's time may lie and still meet it.
    private let maxSlack: Int64

    /// Indexes the items' times and slacks (each at least 0), in the list's order.
    init(times: [Int64], slacks: [Int64]) {
        self.times = times
        self.slacks = slacks
        byTime = times.indices.sorted { (times[$0], $0) < (times[$1], $1) }
        maxSlack = slacks.max() ?? 0
    }

    /// The indices, ascending, of the items whose span meets `from...to`.
    func indices(meeting from: Int64, _ to: Int64) -> [Int] {
        let low = from &- maxSlack, high = to &+ maxSlack
        var lo = 0, hi = byTime.count  // the first position whose time is at or after `low`
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[byTime[mid]] < low { lo = mid + 1 } else { hi = mid }
        }
        var out: [Int] = []
        while lo < byTime.count, times[byTime[lo]] <= high {
            let i = byTime[lo]
            if times[i] + slacks[i] >= from && times[i] - slacks[i] <= to { out.append(i) }
            lo += 1
        }
        return out.sorted()
    }
}
