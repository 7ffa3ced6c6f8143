import Contract
import Foundation
import TraceModel
import TraceRecorder

/// A simulated device session: what an SDK would record, when, and from which thread, with the
/// verdicts and findings a replay of it must give.
package struct Script: Sendable {
    /// One record to make: at `t` (ms since the session began), from thread `lane`.
    package struct Step: Sendable, Equatable {
        /// When, in ms since the session began.
        package var t: Int64
        /// Which thread makes it (0 app calls, 1 system notifications, 2 the SDK's own reports, 3 server and transport).
        package var lane: Int
        /// What is recorded.
        package var event: TraceRecorder.Event
    }

    /// The verdict the replay must give a call, in call order.
    package struct ExpectedVerdict: Sendable, Equatable, CustomStringConvertible {
        /// The call's record type, e.g. `api.setRoute`.
        package var call: String
        /// The verdict.
        package var verdict: VerdictKind
        /// Its cause.
        package var cause: VerdictCause?
        /// Creates an expectation.
        package init(_ call: String, _ verdict: VerdictKind, _ cause: VerdictCause? = nil) {
            self.call = call
            self.verdict = verdict
            self.cause = cause
        }
        package var description: String { "\(call) \(verdict.rawValue)" + (cause.map { " (\($0.rawValue))" } ?? "") }
    }

    /// A finding the replay must raise.
    package struct ExpectedFinding: Sendable, Equatable, CustomStringConvertible {
        /// Its code.
        package var code: FindingCode
        /// Its severity.
        package var severity: Severity
        /// Creates an expectation.
        package init(_ code: FindingCode, _ severity: Severity) {
            self.code = code
            self.severity = severity
        }
        package var description: String { "\(code) (\(severity.rawValue))" }
    }

    /// A name for messages.
    package var name: String
    /// The product layer.
    package var layer: Layer
    /// The steps, in time order.
    package private(set) var steps: [Step] = []
    /// The verdicts, in call order.
    package var expectedVerdicts: [ExpectedVerdict] = []
    /// The findings (code and severity), in the order they are raised.
    package var expectedFindings: [ExpectedFinding] = []
    /// Route divergences the replay must count.
    package var expectedDivergences = 0
    /// Personal values the script records (for the privacy check).
    package var personalValues: [String] = []
    /// When the app is killed and started again, if it is (ms since the session began): the records
    /// from then on are the new process's, in a part marked `resumed`.
    package var restartAt: Int64?

    /// An empty script.
    package init(name: String, layer: Layer) {
        self.name = name
        self.layer = layer
    }

    /// Adds a step; steps must be added in time order. Two lanes may share a `t` only with records that
    /// do not depend on each other's order (they race, as on a device).
    package mutating func add(_ t: Int64, _ lane: Int, _ event: TraceRecorder.Event) {
        precondition(steps.last.map { $0.t <= t } ?? true, "\(name): steps must be added in time order")
        steps.append(Step(t: t, lane: lane, event: event))
    }

    /// The header configuration the script is recorded with.
    package func configuration(directory: String, clock: ManualClock) -> RecorderConfiguration {
        var c = RecorderConfiguration(directory: directory, layer: layer, sdk: layer == .srtc ? "SRTC 5.1.0" : "SMeeting 3.2.1",
                                      device: .init(model: "iPhone15,2", os: "iOS 17.4"),
                                      app: .init(bundleId: "com.example.rtc"))
        c.clock = clock
        // The simulation makes records far faster than a device does (an hour in a second), so the
        // queue holds a whole script: whether the writer keeps up then never depends on the machine.
        c.queue = .init(records: 1 << 16, bytes: 256 << 20)
        return c
    }

    /// The steps as records with consecutive seqs after a header, as an ideal recorder writes them (with
    /// the header of the part a restarted process begins, marked `resumed`, at `restartAt`).
    package func records() -> [Record] {
        var out = [Record(seq: 0, t: 0, .header(TraceHeader(layer: layer, session: .init(id: "script", part: 1))))]
        var restarted = false
        for s in steps {
            if let r = restartAt, !restarted, s.t >= r {
                restarted = true
                out.append(Record(seq: out.count, t: r, .header(TraceHeader(layer: layer, session: .init(id: "script", part: 2, resumed: true)))))
            }
            out.append(Record(seq: out.count, t: s.t, s.event.body))
        }
        return out
    }
}

/// Plays a script's steps into a recorder: the clock is moved to each step's time, and the steps of
/// that time are recorded by their lanes' threads at once; the next time starts when they are done.
package final class ScriptDriver: @unchecked Sendable {
    private let lanes: [DispatchQueue]
    private let clock: ManualClock
    /// The session time the clock's current reading stands for.
    package private(set) var now: Int64

    /// A driver for `clock`, whose current reading is session time `now`.
    package init(clock: ManualClock, now: Int64 = 0, lanes: Int = 4) {
        self.clock = clock
        self.now = now
        self.lanes = (0..<lanes).map { DispatchQueue(label: "rtctrace.sim.lane\($0)") }
    }

    /// Plays the steps with `range.contains(t)` into `recorder`.
    package func play(_ steps: [Script.Step], into recorder: TraceRecorder, range: Range<Int64> = Int64.min..<Int64.max) {
        var i = 0
        let todo = steps.filter { range.contains($0.t) }
        while i < todo.count {
            let t = todo[i].t
            var j = i
            while j < todo.count && todo[j].t == t { j += 1 }
            advance(to: t)
            let group = DispatchGroup()
            var byLane: [Int: [TraceRecorder.Event]] = [:]
            for s in todo[i..<j] { byLane[s.lane, default: []].append(s.event) }
            for (lane, events) in byLane {
                lanes[lane % lanes.count].async(group: group) { for e in events { recorder.record(e) } }
            }
            group.wait()
            i = j
        }
    }

    /// Moves the clock to session time `t` (never back).
    package func advance(to t: Int64) {
        if t > now {
            clock.advance(milliseconds: t - now)
            now = t
        }
    }
}
