import TraceModel

/// B's clock against A's, as a step function of time read off the paired records: one offset at the
/// start (a trace recorded later, a pure shift), and a step wherever the offset moves by more than the
/// tolerance and stays moved (the records after 60 s arriving 2 s late). B's times are compared after
/// taking off the offset of the stretch they fall in, so a shift that starts mid-trace is one difference
/// where it starts, not a difference in every state from the start of the trace on.
struct DiffClock {
    /// From B's time `startB` (A's `startA`) on, B's times are A's plus `offset`.
    struct Step: Equatable {
        var startA: Int64
        var startB: Int64
        var offset: Int64
        /// The paired records where it starts (indexes into A's and B's records).
        var a: Int
        var b: Int
    }

    /// The offset from the start.
    let initial: Int64
    /// Where the offset moves, in time order.
    let steps: [Step]

    /// Paired records a level is judged on: the median of this many, or of the rest when fewer remain.
    static let window = 9
    /// The paired records in a row that must keep a new offset for it to be a step of the clock rather
    /// than records that came late or were made in another order.
    static let minimumRun = 5

    /// The clock of the paired records, in A's order: `offsets` their B time minus their A time, `pair(k)`
    /// the k-th pair's record indexes and times (asked only where the clock steps).
    init(offsets: [Int64], tolerance: Int64, pair: (Int) -> (a: Int, b: Int, tA: Int64, tB: Int64)) {
        func median(_ r: Range<Int>) -> Int64 {
            let sorted = offsets[r].sorted()
            return sorted[(sorted.count - 1) / 2]
        }
        guard !offsets.isEmpty else {
            initial = 0
            steps = []
            return
        }
        var level = median(0..<min(offsets.count, Self.window))
        initial = level
        var steps: [Step] = []
        for i in offsets.indices where abs(offsets[i] - level) > tolerance {
            // A move that the records after it keep (the next `minimumRun` in a row and most of the next
            // window are on the new level) is a step; records off the level for less are behaviour.
            let run = i..<min(offsets.count, i + Self.window)
            guard run.count >= Self.minimumRun else { continue }
            let next = median(run)
            let agree = offsets[run].filter { abs($0 - next) <= tolerance }.count
            let held = offsets[i..<(i + Self.minimumRun)].allSatisfy { abs($0 - next) <= tolerance }
            guard abs(next - level) > tolerance, held, agree * 2 > run.count else { continue }
            let p = pair(i)
            steps.append(Step(startA: p.tA, startB: p.tB, offset: next, a: p.a, b: p.b))
            level = next
        }
        self.steps = steps
    }

    /// B's time `tB` in A's time.
    func a(_ tB: Int64) -> Int64 {
        var offset = initial
        for s in steps {
            guard tB >= s.startB else { break }
            offset = s.offset
        }
        return tB - offset
    }
}
