import Replay
import TraceModel

/// What a diff of two traces calls the things it compares and the values it shows for them.
enum TraceDiffWords {
    /// The predicted route before the first prediction.
    static let noPrediction = "no prediction"
    /// The device's route before it reported one.
    static let notReportedYet = "not reported yet"
    /// The quality level before the first sample.
    static let noQualityData = "no data"
    /// A route divergence's values: what was predicted, what played, and what explains it.
    static func divergence(_ d: Divergence) -> String {
        "predicted \(d.predicted.rawValue), device played \(d.actual.rawValue)" + (d.explainedBy.map { ", explained by \($0)" } ?? (d.startStateUnknown ? ", unknown start state" : d.uncertain ? ", uncertain" : ", unexplained"))
    }
    /// The subject of a difference in where the traces end.
    static let endOfTheTrace = "end of the trace"
    /// A side that goes on with `count` records to `lastT`.
    static func goesOn(_ count: Int, to lastT: Int64) -> String {
        "goes on: \(count) more record\(count == 1 ? "" : "s") to \(formatDuration(lastT))"
    }
}

extension DiffClock {
    /// An offset in words: `B 2.000s behind A`, `B 0.300s ahead of A`, `B with A`.
    static func words(_ offset: Int64) -> String {
        offset == 0 ? "B with A" : "B \(formatDuration(abs(offset))) \(offset > 0 ? "behind" : "ahead of") A"
    }
}
