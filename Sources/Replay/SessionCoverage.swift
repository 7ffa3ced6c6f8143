import TraceModel

/// How much of a recorded session a replay covered, and what it knew where a part began without the part
/// before it: the state from the part's checkpoint (`trace.checkpoint`), or an unknown state until an
/// engagement (or leave) and a route snapshot that accounts for the devices, or a checkpoint, made it known
/// again.
public struct SessionCoverage: Equatable, Sendable {
    /// The session's id (the header's `session.id`).
    public var id: String
    /// The parts replayed, in the order replayed.
    public var parts: [Int] = []
    /// The parts that began without the part before them, each with how the replay knew its state.
    public var starts: [PartStart] = []
    /// The parts missing between two that were replayed.
    public var missing: [MissingParts] = []
    /// The stretches during which the state was unknown.
    public var unknownState: [UnknownState] = []

    /// Creates the coverage of a session.
    public init(id: String) {
        self.id = id
    }

    /// A part that began without the part before it.
    public struct PartStart: Equatable, Sendable {
        /// Its number.
        public var part: Int
        /// Its header.
        public var headerSeq: Int
        /// The checkpoint the engines started from, or nil (the state was unknown).
        public var checkpointSeq: Int?
    }

    /// Parts missing between two replayed ones.
    public struct MissingParts: Equatable, Sendable {
        /// The missing part numbers.
        public var parts: ClosedRange<Int>
        /// The time of the last record before them.
        public var afterT: Int64?
        /// The time of the header of the part after them.
        public var beforeT: Int64
        /// Creates missing parts.
        public init(parts: ClosedRange<Int>, afterT: Int64?, beforeT: Int64) {
            self.parts = parts
            self.afterT = afterT
            self.beforeT = beforeT
        }
    }

    /// A stretch during which nothing was known of the state before it.
    public struct UnknownState: Equatable, Sendable {
        /// The part it began at.
        public var part: Int
        /// The header it began at.
        public var fromSeq: Int
        /// When.
        public var fromT: Int64
        /// The record that made the state known again (the engagement, leave or route snapshot that completed
        /// what the part's records told of it, or a checkpoint); nil when it stayed unknown to the end.
        public var untilSeq: Int?
        /// When.
        public var untilT: Int64?
    }

    /// Whether judgement was withheld somewhere: a part began with an unknown state, or parts are missing.
    public var isPartial: Bool { !missing.isEmpty || !unknownState.isEmpty }

    /// Whether the replay lacks some of the session: a part began without the part before it (even from a
    /// checkpoint), or parts are missing.
    public var isIncomplete: Bool { !starts.isEmpty || !missing.isEmpty }
}
