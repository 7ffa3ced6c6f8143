import Foundation
import Replay
import TraceCodec
import TraceModel

/// Builds a trace from typed records: a header at seq 0, then records with consecutive seqs.
///
/// Tests use it to build traces in memory and, when they need files, to write them with the
/// project's own writer (compressed) or encoder (plain JSON Lines). The golden corpus in traces/
/// is checked in as files; a new golden trace can be drafted with this builder and then reviewed
/// as the JSON Lines it writes.
package struct TraceBuilder {
    /// The records so far, header first.
    package var records: [Record]

    /// Starts a trace with this header at `t` = 0.
    package init(header: TraceHeader) {
        records = [Record(seq: 0, t: 0, .header(header))]
    }

    /// Starts a trace with a test header: an iPhone on iOS 17.4, or a simulator.
    package init(_ layer: Layer = .srtc, simulator: Bool = false, defaultRoute: RouteTarget? = nil) {
        self.init(header: TraceHeader(layer: layer, sdk: "test", device: .init(model: "iPhone15,2", os: "iOS 17.4", simulator: simulator),
                                      initialDefaultRoute: defaultRoute))
    }

    /// The seq the next record gets.
    package var nextSeq: Int { records.count }

    /// The `t` of the last record.
    package var lastT: Int64 { records.last?.t ?? 0 }

    /// Appends a record at `t` with the next seq; returns its seq.
    @discardableResult
    package mutating func add(_ t: Int64, _ body: RecordBody) -> Int {
        records.append(Record(seq: records.count, t: t, body))
        return records.count - 1
    }

    /// Appends a record `dt` ms after the last one; returns its seq.
    @discardableResult
    package mutating func after(_ dt: Int64, _ body: RecordBody) -> Int {
        add(lastT + dt, body)
    }

    /// Appends an `expect.*` record pinning `kind`, citing a catalogue rule; returns its seq.
    @discardableResult
    package mutating func expect(_ t: Int64, _ kind: Expectation.Kind, rule: RuleID? = nil, atEnd: Bool = false) -> Int {
        add(t, .expect(Expectation(kind, atEnd: atEnd, rule: rule)))
    }

    /// Appends events planned out of order (e.g. a periodic report stream and scripted episodes):
    /// sorted by `t`, events at the same `t` in the order given.
    package mutating func add(events: [(t: Int64, body: RecordBody)]) {
        let ordered = events.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }
        for (_, e) in ordered { add(e.t, e.body) }
    }

    /// The trace as JSON Lines, exactly as `rtctrace record` would take it.
    package var jsonLines: String {
        records.map { $0.jsonLine + "\n" }.joined()
    }

    /// Writes the trace: plain JSON Lines for a `.jsonl` path, else compressed with `TraceWriter`
    /// (a frame every `frameRecords` records, so long traces have several frames).
    package func write(to path: String, frameRecords: Int = 1024) throws {
        if path.hasSuffix(".jsonl") {
            try Data(jsonLines.utf8).write(to: URL(fileURLWithPath: path))
        } else {
            try Fixtures.write(records, path, options: TraceWriter.Options(frameRecords: frameRecords))
        }
    }

    /// Replays the trace in memory.
    package func replay(_ options: ReplayOptions = ReplayOptions()) -> ReplayResult {
        Replay.run(records: records, options: options)
    }
}
