import Contract
import Replay
import TraceModel

/// What a reduction says: the problem it keeps, and why it cannot reduce or keep a trace.
enum ReductionWords {
    // MARK: The problem

    /// A trace that does not show the problem the reduction was asked to keep.
    static func notShown(_ goal: ReduceGoal, decidedBy seq: Int?) -> String {
        "the trace does not show the problem: " + absent(goal, decidedBy: seq)
    }

    /// The problem missing from a trace.
    static func absent(_ goal: ReduceGoal, decidedBy seq: Int?) -> String {
        switch goal {
        case .finding(let code): "no \(code) finding" + (seq.map { " decided by seq \($0)" } ?? "")
        case .divergence: "no route divergence"
        case .expectFail: "every expect.* record passes"
        }
    }

    /// A finding kept, with the record that decides it.
    static func finding(_ code: FindingCode, decidedBy seq: Int?) -> String {
        "the finding \(code)" + (seq.map { " (deciding record seq \($0))" } ?? "")
    }

    /// A route divergence kept, with its routes and the records that set them.
    static func divergence(explained: Bool, predicted: Route?, actual: Route?, predictedSeq: Int?, actualSeq: Int?) -> String {
        "an \(explained ? "explained" : "unexplained") divergence: predicted \(predicted?.rawValue ?? "?"), played \(actual?.rawValue ?? "?")"
            + " (" + [predictedSeq.map { "prediction set by seq \($0)" }, actualSeq.map { "actual route from seq \($0)" }]
            .compactMap { $0 }.joined(separator: ", ") + ")"
    }

    /// A failing expectation kept, with its seq and what it got.
    static func failingExpectation(type: String?, seq: Int?, got: String?) -> String {
        "the failing \(type ?? "expect") record" + (seq.map { " (seq \($0))" } ?? "") + (got.map { ", which got \($0)" } ?? "")
    }

    // MARK: Why a reduction fails

    /// A trace that does not start with its header.
    static let needsHeader = "the trace has no trace.header first: reduction keeps the header, so it needs one"
    /// A problem that rests on expectations the reduction drops.
    static func restsOnExpectations(_ problem: String) -> String {
        "without its other expect.* records the trace no longer shows \(problem)"
    }
    /// A record out of its place in the reduced list (a fault of the reduction itself).
    static func outOfPlace(seq: Int, position: Int) -> String { "internal: seq \(seq) at position \(position)" }
    /// A record whose time goes back.
    static func timeGoesBack(seq: Int, t: Int64) -> String { "seq \(seq): t \(t) goes back in time" }
    /// A record that reads back with another seq or time.
    static func readsBackAs(seq: Int, backSeq: Int, backT: Int64) -> String { "seq \(seq): reads back as seq \(backSeq), t \(backT)" }
    /// A record that does not read back at all.
    static func wouldNotReadBack(seq: Int, type: String, error: any Error) -> String { "seq \(seq) (\(type)) would not read back: \(error)" }
    /// A record of an unknown type whose line has no seq and time to renumber.
    static func cannotRenumber(seq: Int, type: String) -> String { "seq \(seq) (\(type)): cannot renumber a record of an unknown type" }
    /// A renumbering that loses the problem.
    static func renumberingLost(_ problem: String) -> String {
        "renumbering the reduced trace lost \(problem); keep the unrenumbered input"
    }
    /// Pins of the reduced trace that fail.
    static func pinsDoNotHold(_ failed: [ExpectationResult]) -> String {
        "the pins of the reduced trace do not hold: " + failed.map { "\($0.type) expected \($0.expected), got \($0.actual)" }.joined(separator: "; ")
    }
    /// Expectations of the reduced trace that fail.
    static func wouldFailCheck(_ failing: [ExpectationResult]) -> String {
        "the reduced trace would fail 'rtctrace check': "
            + failing.map { "seq \($0.seq) \($0.type) expected \($0.expected), got \($0.actual)" }.joined(separator: "; ")
    }
}
