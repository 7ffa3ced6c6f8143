import Replay

// A stretch one side does not have (a part of the session missing, records lost: an unreadable frame, a seq
// gap, a drop, a pause, the gap at a restart) is shown as "missing" on that side, never as the state the
// replay carried across it: what the device did there is not in that trace.
extension Pairing {
    /// The value a state takes on a side where that side's records were lost.
    static let missing = Difference.missing

    /// The step function `f` of one side (in that side's time) with its lost stretches, from the last record
    /// before the loss to the first after it, as `missing`; the value the replay holds after a stretch
    /// takes over at its end. `initial` is the value before `f`'s first step.
    static func masked(_ f: [(Int64, String, Int?)], initial: String, lost: [LostStretch]) -> [(Int64, String, Int?)] {
        let gaps = merged(lost)
        guard !gaps.isEmpty else { return f }
        var out: [(Int64, String, Int?)] = []
        var k = 0
        var current: (String, Int?) = (initial, nil)
        for g in gaps {
            while k < f.count, f[k].0 <= g.from {
                out.append(f[k])
                current = (f[k].1, f[k].2)
                k += 1
            }
            out.append((g.from, missing, nil))
            // What the replay derived inside the stretch (a timer's prediction, say) came from the state
            // carried across it: not shown, but it is what holds when the records resume.
            while k < f.count, f[k].0 < g.to {
                current = (f[k].1, f[k].2)
                k += 1
            }
            out.append((g.to, current.0, current.1))
        }
        out += f[k...]
        return out
    }

    /// The stretches' times, overlapping ones merged, in order; empty stretches left out.
    static func merged(_ lost: [LostStretch]) -> [(from: Int64, to: Int64)] {
        var out: [(from: Int64, to: Int64)] = []
        for s in lost.sorted(by: { $0.fromT < $1.fromT }) where s.toT > s.fromT {
            if let last = out.last, s.fromT <= last.to {
                out[out.count - 1].to = max(last.to, s.toT)
            } else {
                out.append((s.fromT, s.toT))
            }
        }
        return out
    }

    /// The lost stretch of side A behind a `missing` value in a difference from `t` to `end` (A's time).
    func missingInA(from t: Int64, to end: Int64) -> LostStretch? {
        a.result.lost.first { $0.toT > $0.fromT && $0.toT > t && $0.fromT <= end }
    }

    /// The lost stretch of side B behind a `missing` value in a difference from `t` to `end` (A's time).
    func missingInB(from t: Int64, to end: Int64) -> LostStretch? {
        b.result.lost.first { $0.toT > $0.fromT && clock.a($0.toT) > t && clock.a($0.fromT) <= end }
    }
}

extension Pairing {
    /// A verdict, outcome, divergence or finding on one side only, at a moment the other side lost: that side
    /// does not have it because its records are missing there, which it says, not that nothing happened.
    func markMissing(_ d: inout Difference) {
        switch d.kind {
        case .verdict, .outcome, .divergence, .finding:
            if d.aValue == nil, let m = a.result.lost.first(where: { $0.toT > $0.fromT && $0.fromT <= d.t && d.t < $0.toT }) {
                d.aValue = Self.missing
                d.aMissing = m
            }
            if d.bValue == nil, let m = b.result.lost.first(where: { $0.toT > $0.fromT && clock.a($0.fromT) <= d.t && d.t < clock.a($0.toT) }) {
                d.bValue = Self.missing
                d.bMissing = m
            }
        case .call, .predictedRoute, .actualRoute, .quality, .end, .shift:
            // A changed call is on both sides; the states are masked where they are built; the end and the
            // clock are not about a moment one side lost.
            break
        }
    }
}
