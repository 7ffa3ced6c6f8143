import TraceModel

/// How much of a recorded session a replay covered, and what it knew where a part began without the part
/// before it: the state from the part's checkpoint (`trace.checkpoint`), or an unknown state until an
/// engagement (or leave) and a route snapshot that accounts for the devices, or a checkpoint, made it known
/// again.
package struct SessionCoverage: Equatable, Sendable {
    /// The session's id (the header's `session.id`).
    package var id: String
    /// The parts replayed, in the order replayed.
    package var parts: [Int] = []
    /// The parts that began without the part before them, each with how the replay knew its state.
    package var starts: [PartStart] = []
    /// The parts missing between two that were replayed.
    package var missing: [MissingParts] = []
    /// The stretches during which the state was unknown.
    package var unknownState: [UnknownState] = []

    /// Creates the coverage of a session.
    package init(id: String) {
        self.id = id
    }

    /// A part that began without the part before it.
    package struct PartStart: Equatable, Sendable {
        /// Its number.
        package var part: Int
        /// Its header.
        package var headerSeq: Int
        /// The checkpoint the engines started from, or nil (the state was unknown).
        package var checkpointSeq: Int?
    }

    /// Parts missing between two replayed ones.
    package struct MissingParts: Equatable, Sendable {
        /// The missing part numbers.
        package var parts: ClosedRange<Int>
        /// The time of the last record before them.
        package var afterT: Int64?
        /// The time of the header of the part after them.
        package var beforeT: Int64
        /// Creates missing parts.
        package init(parts: ClosedRange<Int>, afterT: Int64?, beforeT: Int64) {
            self.parts = parts
            self.afterT = afterT
            self.beforeT = beforeT
        }
    }

    /// A stretch during which nothing was known of the state before it.
    package struct UnknownState: Equatable, Sendable {
        /// The part it began at.
        package var part: Int
        /// The header it began at.
        package var fromSeq: Int
        /// When.
        package var fromT: Int64
        /// The record that made the state known again (the engagement, leave or route snapshot that completed
        /// what the part's records told of it, or a checkpoint); nil when it stayed unknown to the end.
        package var untilSeq: Int?
        /// When.
        package var untilT: Int64?
    }

    /// Whether judgement was withheld somewhere: a part began with an unknown state, or parts are missing.
    package var isPartial: Bool { !missing.isEmpty || !unknownState.isEmpty }

    /// Whether the replay lacks some of the session: a part began without the part before it (even from a
    /// checkpoint), or parts are missing.
    package var isIncomplete: Bool { !starts.isEmpty || !missing.isEmpty }
}
