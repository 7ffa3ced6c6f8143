import TraceModel

/// A restart of the app's process (RS1): a part whose header says `resumed` begins a new process of the
/// same session; what lived only in the dead one started afresh there.
package struct Restart: Equatable, Sendable {
    /// The resumed part's header.
    package var seq: Int
    /// When the new process's part began.
    package var t: Int64
    /// The part it began.
    package var part: Int
    /// The dead process's last record's time (nil when the replay began at this part).
    package var lastT: Int64?
    /// Route calls still deferred there, dropped with cause `restarted`.
    package var droppedCalls: [Int] = []

    /// Creates a restart.
    package init(seq: Int, t: Int64, part: Int, lastT: Int64?) {
        self.seq = seq
        self.t = t
        self.part = part
        self.lastT = lastT
    }
}

extension ReplayResult {
    /// The parts a restarted process began (RS1), in order.
    package var resumedParts: [Int] { restarts.map(\.part) }
}
