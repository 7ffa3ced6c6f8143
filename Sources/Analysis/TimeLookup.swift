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
