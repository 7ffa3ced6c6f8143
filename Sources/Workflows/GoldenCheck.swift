import Analysis
import CommandLineKit
import Replay
import Reports
import TraceCodec

extension GoldenCheck {
    /// Replays and checks one trace as one case: a file, or the parts of a golden session in part order
    /// (the case's snapshot is named after its first part). With `snapshotRefusal` the snapshot is not
    /// read at all (it is not a file the caller may read, e.g. a link out of the checked folder): the
    /// reason is a failure.
    package static func check(_ trace: TraceSession, options: ReplayOptions = ReplayOptions(), snapshotRefusal: String? = nil) -> CheckOutcome {
        let path = trace.first
        var out = CheckOutcome(trace)
        let result: ReplayResult
        if trace.paths.count == 1 {
            var problems: [TraceProblem] = []
            do {
                result = try Replay.run(trace, options: options, onProblem: { problems.append($0) })
            } catch {
                out.failures.append("\(path): \(error)")
                return out
            }
            out.failures += damageFailures(problems, declared: result.declaredDamage, path: path)
        } else {
            // Not strict, and a part that cannot be opened is a problem (a failure below): nothing is thrown.
            result = (try? Replay.run(trace, options: options, unopened: .isAProblem)) ?? ReplayResult(file: path)
            // A golden session may lack a part on purpose: the seq gap where it is missing is what it pins.
            let afterMissing = Set(result.session?.starts.map(\.headerSeq) ?? [])
            for p in result.problems where !(p.kind == .seqGap && p.seq.map(afterMissing.contains) == true && !(result.session?.missing.isEmpty ?? true)) {
                out.failures.append(WorkflowMessageWords.sessionDamaged(p.description))
            }
        }
        out.session = result.session?.id
        out.expectations = result.expectations.count
        for e in result.expectations where !e.passed {
            out.failures.append("\(path): seq \(e.seq): \(e.type): expected \(e.expected), got \(e.actual)" + (e.rule.map { " [\($0)]" } ?? ""))
        }
        for (type, n) in result.unknownTypes.sorted(by: { $0.key < $1.key }) where type.hasPrefix("expect.") {
            out.failures.append(WorkflowMessageWords.unknownExpectation(path, type, n))
        }
        out.rendered = Renderers.replay(.explainJSON, .init(golden: true))!.render(ReplayReport(result))
        let snap = snapshotPath(for: path)
        if let snapshotRefusal {
            out.failures.append("\(snap): \(snapshotRefusal)")
            return out
        }
        do {
            if let accepted = try SmallFile.text(snap) {
                if accepted == out.rendered {
                    out.snapshot = .matched
                } else {
                    let diff = LineDiff.unified(old: accepted, new: out.rendered, oldName: snap, newName: "replay of \(path)")
                    out.snapshot = .changed(diff: diff)
                    out.failures.append(WorkflowMessageWords.snapshotChanged(snap) + diff)
                }
            }
        } catch {
            out.failures.append("\(snap): \(error)")
        }
        if let why = result.unexplainable {
            out.failures.append(WorkflowMessageWords.notExplainable(path, why))
        } else if out.expectations == 0, out.snapshot == .none {
            out.failures.append(WorkflowMessageWords.noExpectations(path)
                + WorkflowMessageWords.addExpectationsOrWriteOneWith)
        }
        return out
    }
}

extension GoldenCheck {
    /// A golden trace must be intact, unless it declares its damage (`expect.damage`, X5): then exactly the
    /// declared seqs must be lost, by problems that say what they lost, and nothing else may be wrong.
    static func damageFailures(_ problems: [TraceProblem], declared: [ClosedRange<Int>]?, path: String) -> [String] {
        guard let declared else { return problems.map { WorkflowMessageWords.traceDamaged($0.description) } }
        var failures: [String] = []
        var lost = Set<Int>()
        for p in problems {
            if let range = p.lost, p.kind == .seqGap || LossReading.losesRecords(p.kind) {
                lost.formUnion(range)
            } else {
                failures.append(WorkflowMessageWords.undeclaredDamage(p.description))
            }
        }
        let want = Set(declared.flatMap { Array($0) })
        if want != lost {
            failures.append(WorkflowMessageWords.declaredDamageDiffers(path, ranges(want), ranges(lost)))
        }
        return failures
    }

    /// Seqs as inclusive ranges: `[[16, 23]]`.
    static func ranges(_ seqs: Set<Int>) -> String {
        var out: [String] = []
        var run: (Int, Int)?
        for s in seqs.sorted() {
            if let r = run, s == r.1 + 1 { run = (r.0, s); continue }
            if let r = run { out.append("[\(r.0), \(r.1)]") }
            run = (s, s)
        }
        if let r = run { out.append("[\(r.0), \(r.1)]") }
        return "[" + out.joined(separator: ", ") + "]"
    }
}
