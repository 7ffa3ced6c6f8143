// The quality engine is tested through the shared store (Tests/TestSupport/TestStore.swift): send
// a record, assert the whole next state and the exact outputs. These are the quality helpers.
import Contract
@testable import QualityEngine
import TestSupport
import TraceModel

/// The shared test store around a quality engine; it starts past the header (seq 0).
typealias TestStore = TestSupport.TestStore<QualityEngine>

typealias State = QualityEngine.State

// MARK: Builders

func sample(_ level: QualityLevel, mos: Double? = nil) -> QualitySample {
    QualitySample(level: level, mos: mos)
}

func report(_ pub: QualityLevel, _ sub: QualityLevel, pubMos: Double? = nil, subMos: Double? = nil) -> RecordBody {
    .qualityReport(pub: sample(pub, mos: pubMos), sub: sample(sub, mos: subMos))
}

func change(_ seq: Int, _ t: Int64, _ previous: QualityLevel, _ overall: QualityLevel,
            mos: Double? = nil) -> QualityEngine.LevelChange {
    QualityEngine.LevelChange(seq: seq, t: t, previous: previous, overall: overall, mos: mos)
}

func finding(_ code: String, _ rule: String, _ seqs: [Int], _ t: Int64,
             _ severity: Severity = .warning, call: Int? = nil) -> QualityOutput {
    .finding(Finding(code: FindingCode(rawValue: code)!, severity: severity, rule: RuleID(rawValue: rule)!, seqs: seqs, t: t,
                     message: "", advice: "", call: call))
}

func matchTimer(_ seq: Int, _ due: Int64) -> QualityTimer {
    QualityTimer(due: due, kind: .matchWindow(changeSeq: seq))
}

func confirmTimer(_ seq: Int, _ due: Int64) -> QualityTimer {
    QualityTimer(due: due, kind: .layerConfirm(callSeq: seq))
}

/// S3: the match window after the snapshot derived by update `seq`.
func snapshotTimer(_ seq: Int, _ due: Int64) -> QualityTimer {
    QualityTimer(due: due, kind: .snapshotWindow(snapshotSeq: seq))
}

func speaker(_ uid: String, _ track: String, _ level: Double) -> Speaker {
    Speaker(uid: uid, trackId: track, level: level)
}

func key(_ uid: String, _ track: String) -> SpeakerKey {
    SpeakerKey(uid: uid, trackId: track)
}

func switchVerdict(_ seq: Int, _ t: Int64, _ kind: VerdictKind, _ cause: VerdictCause? = nil, causeSeq: Int? = nil,
                   rule: RuleID) -> QualityOutput {
    var v = Verdict(seq: seq, t: t, call: .switchLayer, verdict: kind, cause: cause, causeSeq: causeSeq, rule: rule)
    // V2 extends to switchLayer (L4): the outcome is the verdict, decided at the call.
    v.outcome = Outcome(kind: OutcomeKind(rawValue: kind.rawValue)!, cause: cause, t: t, seq: seq)
    return .verdict(v)
}

/// L4: what became of an accepted switch whose send failed (the `sdk.error` at `by`).
func switchOutcome(_ callSeq: Int, _ kind: OutcomeKind, _ cause: VerdictCause? = nil, t: Int64, by: Int?) -> QualityOutput {
    .outcome(callSeq: callSeq, Outcome(kind: kind, cause: cause, t: t, seq: by))
}

extension TestSupport.TestStore where Engine == QualityEngine {
    /// Sends a report that changes the level and checks the change, its timer, the baseline and `latest`.
    @discardableResult
    func reportChange(_ t: Int64, _ pub: QualityLevel, _ sub: QualityLevel, extra: [QualityOutput] = [],
                      file: StaticString = #filePath, line: UInt = #line,
                      _ update: (inout State) -> Void = { _ in }) -> Int {
        let seq = nextSeq
        let overall = max(pub, sub)
        let c = change(seq, t, expected.baseline, overall)
        return send(t, report(pub, sub), [.levelChange(c), .timer(matchTimer(seq, t + 1001))] + extra,
                    file: file, line: line) {
            $0.latest = .init(overall: overall)
            $0.baseline = overall
            $0.changes.append(c)
            $0.unmatchedChanges.append(c)
            $0.recentChanges.append(.init(seq: seq, t: t, overall: overall))
            if $0.recentChanges.count > 5 { $0.recentChanges.removeFirst() }
            update(&$0)
        }
    }
}
