import TraceModel

/// A restart of the app's process (RS1): a part whose header says `resumed` begins a new process of the
/// same session; what lived only in the dead one started afresh there.
public struct Restart: Equatable, Sendable {
    /// The resumed part's header.
    public var seq: Int
    /// When the new process's part began.
    public var t: Int64
    /// The part it began.
    public var part: Int
    /// The dead process's last record's time (nil when the replay began at this part).
    public var lastT: Int64?
    /// Route calls still deferred there, dropped with cause `restarted`.
    public var droppedCalls: [Int] = []

    /// Creates a restart.
    public init(seq: Int, t: Int64, part: Int, lastT: Int64?) {
        self.seq = seq
        self.t = t
        self.part = part
        self.lastT = lastT
    }
}

extension ReplayResult {
    /// The parts a restarted process began (RS1), in order.
    public var resumedParts: [Int] { restarts.map(\.part) }
}
