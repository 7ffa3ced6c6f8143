// A TCA-style test store: feed a record, assert the whole next state and the exact outputs.
import XCTest
import TraceFormat
@testable import QualityEngine

typealias State = QualityEngine.State

/// Drives a QualityEngine one record at a time, numbering records itself, and checks every step exhaustively.
final class TestStore {
    private(set) var engine: QualityEngine
    private(set) var expected: State
    /// The seq the next `send` will use.
    private(set) var nextSeq = 0
    /// Every output produced so far, findings included.
    private(set) var log: [QualityOutput] = []

    init(options: QualityEngine.Options = .init(), layer: Layer = .srtc, file: StaticString = #filePath,
         line: UInt = #line) {
        engine = QualityEngine(options: options)
        expected = engine.state
        send(0, .header(TraceHeader(layer: layer)), file: file, line: line) { $0.layer = layer }
    }

    /// Replays `body` at `t` with the next seq; `update` turns the previous expected state into the next one.
    @discardableResult
    func send(_ t: Int64, _ body: RecordBody, _ outputs: [QualityOutput] = [], file: StaticString = #filePath,
              line: UInt = #line, _ update: (inout State) -> Void = { _ in }) -> Int {
        let seq = nextSeq
        nextSeq += 1
        let actual = engine.apply(Record(seq: seq, t: t, body))
        check(actual, outputs, update, file: file, line: line)
        return seq
    }

    /// Fires a timer, as the replayer does when the virtual clock reaches its due time.
    func fire(_ timer: QualityTimer, _ outputs: [QualityOutput] = [], file: StaticString = #filePath,
              line: UInt = #line, _ update: (inout State) -> Void = { _ in }) {
        check(engine.fire(timer), outputs, update, file: file, line: line)
    }

    /// Ends the trace at `t` after the last record sent.
    func finish(_ t: Int64, _ outputs: [QualityOutput] = [], file: StaticString = #filePath, line: UInt = #line,
                _ update: (inout State) -> Void = { _ in }) {
        check(engine.finish(t: t, lastSeq: nextSeq - 1), outputs, update, file: file, line: line)
    }

    /// The findings raised so far, full text included.
    var findings: [Finding] {
        log.compactMap { if case .finding(let f) = $0 { f } else { nil } }
    }

    private func check(_ actual: [QualityOutput], _ outputs: [QualityOutput], _ update: (inout State) -> Void,
                       file: StaticString, line: UInt) {
        log += actual
        update(&expected)
        XCTAssertEqual(actual.map(Self.shape), outputs.map(Self.shape), "outputs", file: file, line: line)
        XCTAssertEqual(engine.state, expected, "state", file: file, line: line)
        for case .finding(let f) in actual {
            XCTAssertFalse(f.message.isEmpty || f.advice.isEmpty, "finding \(f.code) lacks prose", file: file, line: line)
        }
    }

    /// Findings are compared without their prose (tested separately in ProseTests).
    static func shape(_ output: QualityOutput) -> QualityOutput {
        guard case .finding(var f) = output else { return output }
        f.message = ""
        f.advice = ""
        return .finding(f)
    }
}

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
             _ severity: Severity = .warning) -> QualityOutput {
    .finding(Finding(code: FindingCode(rawValue: code)!, severity: severity, rule: RuleID(rawValue: rule)!, seqs: seqs, t: t,
                     message: "", advice: ""))
}

func matchTimer(_ seq: Int, _ due: Int64) -> QualityTimer {
    QualityTimer(due: due, kind: .matchWindow(changeSeq: seq))
}

func confirmTimer(_ seq: Int, _ due: Int64) -> QualityTimer {
    QualityTimer(due: due, kind: .layerConfirm(callSeq: seq))
}

func speaker(_ uid: String, _ track: String, _ level: Double) -> Speaker {
    Speaker(uid: uid, trackId: track, level: level)
}

func key(_ uid: String, _ track: String) -> SpeakerKey {
    SpeakerKey(uid: uid, trackId: track)
}

func switchVerdict(_ seq: Int, _ t: Int64, _ kind: VerdictKind, _ cause: VerdictCause? = nil, causeSeq: Int? = nil,
                   rule: String) -> QualityOutput {
    .verdict(Verdict(seq: seq, t: t, call: "api.switchLayer", verdict: kind, cause: cause, causeSeq: causeSeq,
                     rule: RuleID(rawValue: rule)!))
}

extension TestStore {
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
