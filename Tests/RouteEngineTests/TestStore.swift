import RouteEngine
import TraceFormat
import XCTest

/// TCA-style test store: feed a record, assert the whole next state and the exact outputs.
///
/// Findings are compared on code, severity, rule, seqs and t; their prose is checked separately
/// (every finding any test produces must be non-empty and use only its layer's words).
struct TestStore {
    private(set) var engine: RouteEngine
    private(set) var nextSeq = 0
    private(set) var t: Int64 = 0

    init(options: RouteEngine.Options = .init()) {
        engine = RouteEngine(options: options)
    }

    var state: RouteEngine.State { engine.state }

    /// Sends the next record (seq assigned in order) and asserts the state change and outputs.
    @discardableResult
    mutating func send(
        _ body: RecordBody, at time: Int64? = nil, outputs expected: [RouteOutput] = [],
        file: StaticString = #filePath, line: UInt = #line,
        _ update: (inout RouteEngine.State) -> Void = { _ in }
    ) -> Int {
        if let time { t = time }
        let seq = nextSeq
        nextSeq += 1
        var expectedState = engine.state
        update(&expectedState)
        let outputs = engine.apply(Record(seq: seq, t: t, body))
        check(outputs, expected, expectedState, file: file, line: line)
        return seq
    }

    /// Delivers a timer and asserts the state change and outputs.
    mutating func fire(
        _ timer: RouteTimer, outputs expected: [RouteOutput] = [],
        file: StaticString = #filePath, line: UInt = #line,
        _ update: (inout RouteEngine.State) -> Void = { _ in }
    ) {
        t = max(t, timer.due)
        var expectedState = engine.state
        update(&expectedState)
        let outputs = engine.fire(timer)
        check(outputs, expected, expectedState, file: file, line: line)
    }

    /// Ends the trace and asserts the state change and outputs.
    mutating func finish(
        outputs expected: [RouteOutput] = [], file: StaticString = #filePath, line: UInt = #line,
        _ update: (inout RouteEngine.State) -> Void = { _ in }
    ) {
        var expectedState = engine.state
        update(&expectedState)
        let outputs = engine.finish(t: t, lastSeq: nextSeq - 1)
        check(outputs, expected, expectedState, file: file, line: line)
    }

    /// Sends a record without asserting anything but prose hygiene; returns the raw outputs.
    @discardableResult
    mutating func skip(_ body: RecordBody, at time: Int64? = nil) -> [RouteOutput] {
        if let time { t = time }
        let outputs = engine.apply(Record(seq: nextSeq, t: t, body))
        nextSeq += 1
        for case .finding(let f) in outputs { assertLayerWords(f, layer: engine.state.layer) }
        return outputs
    }

    private func check(_ outputs: [RouteOutput], _ expected: [RouteOutput], _ expectedState: RouteEngine.State,
                       file: StaticString, line: UInt) {
        for case .finding(let f) in outputs { assertLayerWords(f, layer: engine.state.layer, file: file, line: line) }
        XCTAssertEqual(outputs.map(stripProse), expected.map(stripProse), "outputs", file: file, line: line)
        if engine.state != expectedState {
            XCTFail("state differs: \(stateDiff(expectedState, engine.state))", file: file, line: line)
        }
    }
}

/// Blanks a finding's message and advice, which tests check on their own.
func stripProse(_ output: RouteOutput) -> RouteOutput {
    guard case .finding(var f) = output else { return output }
    f.message = ""
    f.advice = ""
    return .finding(f)
}

/// A finding to compare against (prose blanked).
func finding(_ code: String, _ severity: Severity, _ rule: String?, _ seqs: [Int], t: Int64) -> RouteOutput {
    .finding(Finding(code: FindingCode(rawValue: code)!, severity: severity, rule: rule.map { RuleID(rawValue: $0)! },
                     seqs: seqs, t: t, message: "", advice: ""))
}

/// A V1 verdict to compare against, with the outcome V2 decides at the call (`pending` when deferred).
func verdict(_ seq: Int, _ call: String, _ kind: VerdictKind, _ cause: VerdictCause? = nil, causeSeq: Int? = nil,
             t: Int64, api: String? = nil) -> RouteOutput {
    var v = Verdict(seq: seq, t: t, call: call, api: api, verdict: kind, cause: cause, causeSeq: causeSeq, rule: .V1)
    v.outcome = kind == .deferred ? Outcome(kind: .pending, t: t, seq: nil)
        : Outcome(kind: OutcomeKind(rawValue: kind.rawValue)!, cause: cause, t: t, seq: seq)
    return .verdict(v)
}

/// A later outcome decision (V2) to compare against; `by` nil for a timer.
func outcome(_ callSeq: Int, _ kind: OutcomeKind, _ cause: VerdictCause? = nil, t: Int64, by: Int?) -> RouteOutput {
    .outcome(callSeq: callSeq, Outcome(kind: kind, cause: cause, t: t, seq: by))
}

/// The words a finding of this layer must never use in prose (seeds/README.md).
func forbiddenWords(_ layer: Layer) -> [String] {
    layer == .smeeting ? ["channel", "join", "leave", "leaving"] : ["meeting", "room", "enter", "exit"]
}

/// Fails when a finding's prose is empty or uses the other layer's words.
func assertLayerWords(_ f: Finding, layer: Layer, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(f.message.isEmpty, "\(f.code): empty message", file: file, line: line)
    XCTAssertFalse(f.advice.isEmpty, "\(f.code): empty advice", file: file, line: line)
    let prose = (f.message + " " + f.advice).lowercased()
    for word in forbiddenWords(layer) where prose.contains(word) {
        XCTFail("\(f.code) on a \(layer) trace says \"\(word)\": \(f.message) / \(f.advice)", file: file, line: line)
    }
}

/// Names the fields of two states that differ.
func stateDiff(_ expected: RouteEngine.State, _ actual: RouteEngine.State) -> String {
    let e = Mirror(reflecting: expected).children
    let a = Array(Mirror(reflecting: actual).children)
    var parts: [String] = []
    for (i, child) in e.enumerated() {
        let l = String(describing: child.value), r = String(describing: a[i].value)
        if l != r { parts.append("\(child.label ?? "?"): expected \(l), got \(r)") }
    }
    return parts.joined(separator: "; ")
}

/// A header for tests.
func header(_ layer: Layer = .srtc, simulator: Bool = false, micUsage: Bool = true, backgroundAudio: Bool = true,
            initialDefault: RouteTarget? = nil) -> RecordBody {
    .header(TraceHeader(layer: layer, device: .init(simulator: simulator),
                        app: .init(micUsageDescription: micUsage, backgroundAudio: backgroundAudio),
                        initialDefaultRoute: initialDefault))
}

extension TestStore {
    /// A store past its header (seq 0) and, when `engaged`, a join at seq 1; both asserted loosely.
    static func started(_ layer: Layer = .srtc, engaged: Bool = true, initialDefault: RouteTarget? = nil,
                        simulator: Bool = false, options: RouteEngine.Options = .init()) -> TestStore {
        var store = TestStore(options: options)
        store.skip(header(layer, simulator: simulator, initialDefault: initialDefault))
        if engaged { store.skip(layer == .srtc ? .joinChannel(channel: "c") : .enterMeeting(room: "r")) }
        return store
    }
}
