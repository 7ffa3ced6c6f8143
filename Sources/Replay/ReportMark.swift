import Contract
import QualityEngine
import RouteEngine
import TraceCodec
import TraceModel

/// A user's problem report the app marked in the trace (`trace.report`): where support starts reading.
package struct ReportMark: Equatable, Sendable {
    /// The report's id, as the app showed it to the user (clipped).
    package var id: String
    /// The app's note, free text (clipped; a token in a redacted trace).
    package var note: String?
    /// When it was marked.
    package var t: Int64
    /// The `trace.report` record.
    package var seq: Int
    /// Marks kept at most.
    package static let kept = 64

    /// Creates a mark.
    package init(id: String, note: String?, t: Int64, seq: Int) {
        self.id = id
        self.note = note
        self.t = t
        self.seq = seq
    }
}
