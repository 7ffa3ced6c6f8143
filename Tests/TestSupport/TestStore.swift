import Foundation
import Contract
import TraceModel
import XCTest

/// An engine the test store can drive: a production `Engine` (a pure reducer whose timers come back as
/// data), with what the tests need to compare its outputs.
package protocol TestableReducer: Contract.Engine {
    /// The layer whose words the engine's findings must use.
    var layer: Layer { get }
    /// The output with a finding's message and advice blanked: tests compare prose separately.
    static func withoutProse(_ output: Output) -> Output
}

extension TestableReducer {
    /// The finding an output carries, if it is one.
    static func finding(in output: Output) -> Finding? {
        if case .finding(let f) = role(of: output) { return f }
        return nil
    }
}

/// A TCA-style test store for either engine: send a record, assert the whole next state and the
/// exact outputs.
///
/// The store numbers records itself (seq 0, 1, …) and keeps a clock that `send(_:at:)` moves.
/// Outputs are compared with findings' prose blanked; every finding's prose must be non-empty and
/// use only its layer's words (SRTC: channels that users join and leave; SMeeting: meetings that
/// members enter and exit). It is a value: a copy continues independently, which lets a test fork
/// a scenario. The positional spelling some tests use (`send(t, body, outputs)`, see
/// TestStore+Engines.swift) needs no `var`.
package struct TestStore<Engine: TestableReducer> {
    final class Storage {
        var engine: Engine
        var nextSeq = 0
        var t: Int64 = 0
        var log: [Engine.Output] = []

        init(_ engine: Engine) { self.engine = engine }

        func copy() -> Storage {
            let s = Storage(engine)
            s.nextSeq = nextSeq
            s.t = t
            s.log = log
            return s
        }
    }

    private var storage: Storage

    /// A store around an engine in its initial state (or any state a test prepared).
    package init(engine: Engine) {
        storage = Storage(engine)
    }

    /// The engine as it is now.
    package var engine: Engine { storage.engine }
    /// The engine's state as it is now.
    package var state: Engine.State { storage.engine.state }
    /// The state the next step's expectation starts from.
    package var expected: Engine.State { storage.engine.state }
    /// The seq the next record gets.
    package var nextSeq: Int { storage.nextSeq }
    /// The store's clock: the `t` of the last record sent or timer fired.
    package var t: Int64 { storage.t }
    /// Every output so far, in order.
    package var log: [Engine.Output] { storage.log }
    /// The findings raised so far, prose included.
    package var findings: [Finding] { storage.log.compactMap(Engine.finding(in:)) }

    // MARK: Steps

    /// Sends the next record (at `time`, else at the clock) and asserts the state change and outputs.
    @discardableResult
    package mutating func send(
        _ body: RecordBody, at time: Int64? = nil, outputs expected: [Engine.Output] = [],
        file: StaticString = #filePath, line: UInt = #line,
        _ update: (inout Engine.State) -> Void = { _ in }
    ) -> Int {
        unshare()
        return step(time, body, expected, update, file: file, line: line)
    }

    /// Delivers a timer (moving the clock to its due time) and asserts the state change and outputs.
    package mutating func fire(
        _ timer: EngineTimer<Engine.TimerKind>, outputs expected: [Engine.Output] = [],
        file: StaticString = #filePath, line: UInt = #line,
        _ update: (inout Engine.State) -> Void = { _ in }
    ) {
        unshare()
        fireStep(timer, expected, update, file: file, line: line)
    }

    /// Ends the trace at the clock and asserts the state change and outputs.
    package mutating func finish(
        outputs expected: [Engine.Output] = [], file: StaticString = #filePath, line: UInt = #line,
        _ update: (inout Engine.State) -> Void = { _ in }
    ) {
        unshare()
        finishStep(nil, expected, update, file: file, line: line)
    }

    /// Sends a record asserting nothing but its findings' prose; returns the raw outputs.
    @discardableResult
    package mutating func skip(_ body: RecordBody, at time: Int64? = nil,
                              file: StaticString = #filePath, line: UInt = #line) -> [Engine.Output] {
        unshare()
        if let time { storage.t = time }
        let outputs = storage.engine.apply(Record(seq: storage.nextSeq, t: storage.t, body))
        storage.nextSeq += 1
        storage.log += outputs
        checkProse(outputs, file: file, line: line)
        return outputs
    }

    // MARK: Shared machinery (the positional spelling calls these without copying the storage)

    func step(_ time: Int64?, _ body: RecordBody, _ expected: [Engine.Output], _ update: (inout Engine.State) -> Void,
              file: StaticString, line: UInt) -> Int {
        if let time { storage.t = time }
        let seq = storage.nextSeq
        storage.nextSeq += 1
        var expectedState = storage.engine.state
        update(&expectedState)
        let outputs = storage.engine.apply(Record(seq: seq, t: storage.t, body))
        check(outputs, expected, expectedState, file: file, line: line)
        return seq
    }

    func fireStep(_ timer: EngineTimer<Engine.TimerKind>, _ expected: [Engine.Output], _ update: (inout Engine.State) -> Void,
                  file: StaticString, line: UInt) {
        storage.t = max(storage.t, timer.due)
        var expectedState = storage.engine.state
        update(&expectedState)
        let outputs = storage.engine.fire(timer)
        check(outputs, expected, expectedState, file: file, line: line)
    }

    func finishStep(_ time: Int64?, _ expected: [Engine.Output], _ update: (inout Engine.State) -> Void,
                    file: StaticString, line: UInt) {
        if let time { storage.t = time }
        var expectedState = storage.engine.state
        update(&expectedState)
        let outputs = storage.engine.finish(t: storage.t, lastSeq: storage.nextSeq - 1, end: .end)
        check(outputs, expected, expectedState, file: file, line: line)
    }

    private mutating func unshare() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    private func check(_ outputs: [Engine.Output], _ expected: [Engine.Output], _ expectedState: Engine.State,
                       file: StaticString, line: UInt) {
        storage.log += outputs
        checkProse(outputs, file: file, line: line)
        XCTAssertEqual(outputs.map(Engine.withoutProse), expected.map(Engine.withoutProse), "outputs", file: file, line: line)
        if storage.engine.state != expectedState {
            XCTFail("state differs: \(stateDiff(expectedState, storage.engine.state))", file: file, line: line)
        }
    }

    private func checkProse(_ outputs: [Engine.Output], file: StaticString, line: UInt) {
        for f in outputs.compactMap(Engine.finding(in:)) {
            assertLayerWords(f, layer: storage.engine.layer, file: file, line: line)
        }
    }
}

/// The words a finding of this layer must never use in prose.
package func forbiddenWords(_ layer: Layer) -> [String] {
    layer == .smeeting ? ["channel", "join", "leave", "leaving"] : ["meeting", "room", "enter", "exit"]
}


/// Fails when a finding's prose is empty or uses the other layer's words.
package func assertLayerWords(_ f: Finding, layer: Layer, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(f.message.isEmpty, "\(f.code): empty message", file: file, line: line)
    XCTAssertFalse(f.advice.isEmpty, "\(f.code): empty advice", file: file, line: line)
    // Quoted text is the trace's own data (a device's name, a recorded value), not prose.
    var prose = "", quoted = false
    for c in (f.message + " " + f.advice).lowercased() {
        if c == "\"" { quoted.toggle() } else if !quoted { prose.append(c) }
    }
    for word in forbiddenWords(layer) where prose.contains(word) {
        XCTFail("\(f.code) on a \(layer) trace says \"\(word)\": \(f.message) / \(f.advice)", file: file, line: line)
    }
}

/// Names the fields of two values (states) that differ, for a readable failure.
package func stateDiff<T>(_ expected: T, _ actual: T) -> String {
    let e = Mirror(reflecting: expected).children
    let a = Array(Mirror(reflecting: actual).children)
    var parts: [String] = []
    for (i, child) in e.enumerated() where i < a.count {
        let l = String(describing: child.value), r = String(describing: a[i].value)
        if l != r { parts.append("\(child.label ?? "?"): expected \(l), got \(r)") }
    }
    return parts.isEmpty ? "\(expected) vs \(actual)" : parts.joined(separator: "; ")
}

/// The arena the tests' engines read their records from: one symbol table for every engine a test makes,
/// so that an engine copied into another store reads the same symbols (tests run one at a time).
nonisolated(unsafe) let testArena = ReplayArena(keepsWhole: true)
private let testArenaLock = NSLock()

// The tests' view of an engine step: what the engine wrote into an observed sink, as an array, with the
// deadlines of its windows as timers the test delivers back.
extension Contract.Engine {
    /// Applies a record (taken into the tests' arena as the replay takes it) and returns what it wrote.
    package mutating func apply(_ record: Record) -> [Output] {
        var sink = OutputSink<Output>(observed: true, deadlinesAsTimers: true)
        testArenaLock.lock()
        defer { testArenaLock.unlock() }
        testArena.reset()
        apply(testArena.take(record), in: testArena, into: &sink)
        return sink.outputs
    }

    /// Delivers a timer and returns what it wrote.
    package mutating func fire(_ timer: EngineTimer<TimerKind>) -> [Output] {
        var sink = OutputSink<Output>(observed: true, deadlinesAsTimers: true)
        fire(timer, into: &sink)
        return sink.outputs
    }

    /// Ends the trace and returns what it wrote.
    package mutating func finish(t: Int64, lastSeq: Int, end: TraceEnd = .end) -> [Output] {
        var sink = OutputSink<Output>(observed: true, deadlinesAsTimers: true)
        finish(t: t, lastSeq: lastSeq, end: end, into: &sink)
        return sink.outputs
    }
}
