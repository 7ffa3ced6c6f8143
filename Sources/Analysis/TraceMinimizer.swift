import Replay
import TraceModel

/// What a reduction must keep showing.
package enum ReduceGoal: Sendable, Equatable {
    /// A finding with this code (the same deciding record as the first one in the trace).
    case finding(FindingCode)
    /// A route divergence: the first unexplained one (else the first), same routes and same actual-route record.
    case divergence
    /// The first failing `expect.*` record still fails.
    case expectFail
}

/// Reduction settings.
package struct ReduceOptions: Sendable {
    /// What to keep showing.
    package var goal: ReduceGoal
    /// Replays allowed in all (delta debugging, then timestamps); the best result so far is kept when reached.
    package var maxReplays: Int
    /// The replay options (tolerance, windows) the problem is judged with.
    package var replay: ReplayOptions
    /// Which occurrence of a finding to keep: the one whose deciding record has this seq. Nil keeps
    /// the most severe one (the first of those).
    package var seq: Int?
    /// Whether personal values are replaced (as `redact` does) before the result is returned: the
    /// output is meant for a repository.
    package var redact: Bool
    /// The redaction key (nil: a random key used once, `Redactor.oneTimeKey`).
    package var salt: String?

    /// Creates options.
    package init(goal: ReduceGoal, maxReplays: Int = 2000, replay: ReplayOptions = ReplayOptions(), seq: Int? = nil,
                redact: Bool = true, salt: String? = nil) {
        self.goal = goal
        self.maxReplays = maxReplays
        self.replay = replay
        self.seq = seq
        self.redact = redact
        self.salt = salt
    }
}

/// Where a reduction is, for a progress line.
package struct ReduceProgress: Sendable {
    /// `prefix`, `ddmin`, `timestamps` or `verify`.
    package var phase: String
    /// Replays made so far.
    package var replays: Int
    /// Records (besides the header) in the smallest trace so far that still shows the problem.
    package var records: Int
}

/// A reduction that cannot start or did not hold.
package struct ReduceError: Error, CustomStringConvertible {
    /// What went wrong.
    package var description: String
}

/// The outcome of a reduction.
package struct ReduceResult: Sendable {
    /// The reduced trace: header, the kept records renumbered from 1, then the `expect.*` pins.
    package var records: [Record]
    /// Records in the input, header included.
    package var originalRecords: Int
    /// Records kept besides the header and the pins.
    package var keptRecords: Int
    /// Replays made.
    package var replays: Int
    /// Whether the replay bound stopped the search early (the result still shows the problem).
    package var hitReplayBound: Bool
    /// The problem pinned, in words.
    package var problem: String
}

/// Shrinks a trace to a small one that still shows the same problem: delta debugging (ddmin) over
/// the records after the header, then simplification of the gaps between timestamps, then seqs
/// renumbered and `expect.*` records appended that pin the problem.
package final class TraceMinimizer {
    let options: ReduceOptions
    let header: Record
    let body: [Record]
    let progress: ((ReduceProgress) -> Void)?
    var replays = 0
    var hitBound = false
    var best: Int

    /// Prepares a reduction of `records` (the whole trace, header first).
    package init(records: [Record], options: ReduceOptions, progress: ((ReduceProgress) -> Void)? = nil) throws {
        guard let first = records.first, case .header = first.body else {
            throw ReduceError(description: ReductionWords.needsHeader)
        }
        self.options = options
        header = first
        body = Array(records.dropFirst())
        self.progress = progress
        best = body.count
    }

    /// Runs the reduction.
    package func run() throws -> ReduceResult {
        let original = Replay.run(records: [header] + body, options: options.replay)
        replays += 1
        guard let target = Target(goal: options.goal, seq: options.seq, result: original) else {
            throw ReduceError(description: ReductionWords.notShown(options.goal, decidedBy: options.seq))
        }
        // Expectations do not change what the engines do: keep only the failing one, if that is the goal.
        var candidates = body.filter { r in
            if case .expect = r.body { return target.keepSeq == r.seq }
            return true
        }
        guard holds(candidates, target) else {
            throw ReduceError(description: ReductionWords.restsOnExpectations(target.description))
        }
        let all = candidates
        candidates = shortestPrefix(candidates, target)
        candidates = ddmin(candidates, target)
        candidates = restoreContext(candidates, from: all, target)
        candidates = simplifyTimes(candidates, target)
        return try finish(candidates, target, originalCount: body.count + 1)
    }

    /// Whether header + `records` still shows the problem.
    func holds(_ records: [Record], _ target: Target) -> Bool {
        replays += 1
        if replays >= options.maxReplays { hitBound = true }
        return target.matches(Replay.run(records: [header] + records, options: options.replay))
    }

    var budgetLeft: Bool { replays < options.maxReplays }

    func report(_ phase: String, _ count: Int) {
        best = min(best, count)
        progress?(ReduceProgress(phase: phase, replays: replays, records: count))
    }

    /// Binary search for a short prefix that still shows it (later records rarely matter).
    func shortestPrefix(_ records: [Record], _ target: Target) -> [Record] {
        let mustReach = records.lastIndex { $0.seq == target.keepSeq }.map { $0 + 1 } ?? 0
        var lo = mustReach, hi = records.count
        while hi - lo > 1, budgetLeft {
            let mid = (lo + hi) / 2
            if holds(Array(records[..<mid]), target) { hi = mid } else { lo = mid }
            report("prefix", hi)
        }
        return Array(records[..<hi])
    }

    /// Zeller's ddmin: try subsets, then complements, at ever finer granularity, keeping the record
    /// the goal needs; stops at 1-minimality or at the replay bound.
    func ddmin(_ records: [Record], _ target: Target) -> [Record] {
        let keep = records.filter { $0.seq == target.keepSeq }
        var c = records.filter { $0.seq != target.keepSeq }
        func test(_ subset: [Record]) -> Bool { holds(merge(subset, keep), target) }
        if !c.isEmpty, budgetLeft, test([]) { return keep }
        var n = 2
        while c.count >= 2, budgetLeft {
            let chunks = split(c, n)
            var reduced = false
            for chunk in chunks where budgetLeft && test(chunk) {
                c = chunk
                n = 2
                reduced = true
                break
            }
            // With two chunks the complements are the chunks themselves, already tried.
            if !reduced && chunks.count > 2 {
                for i in chunks.indices where budgetLeft {
                    let complement = chunks.enumerated().filter { $0.offset != i }.flatMap(\.element)
                    if test(complement) {
                        c = complement
                        n = max(n - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            report("ddmin", c.count + keep.count)
            if !reduced {
                if n >= c.count { break }
                n = min(c.count, 2 * n)
            }
        }
        return merge(c, keep)
    }

    /// Splits into `n` nearly equal consecutive chunks.
    func split(_ c: [Record], _ n: Int) -> [[Record]] {
        var out: [[Record]] = []
        var start = 0
        for i in 0..<n {
            let end = start + (c.count - start) / (n - i)
            if end > start { out.append(Array(c[start..<end])) }
            start = end
        }
        return out
    }

    /// The records of both lists in seq order.
    func merge(_ a: [Record], _ b: [Record]) -> [Record] {
        b.isEmpty ? a : (a + b).sorted { $0.seq < $1.seq }
    }
}
