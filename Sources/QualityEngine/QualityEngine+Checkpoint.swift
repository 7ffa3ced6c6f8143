import Contract
import TraceModel

// A part of a session that begins without the parts before it. The checkpoint (`trace.checkpoint`) names
// the transport but no quality or speaker data, so what the SDK derived before the part is unknown in
// either case: the first level change the replay derives is compared with the SDK's by its new level only,
// and speaker snapshots are not compared until the derived and the SDK's agree once, or a reconnect
// clears both.
extension QualityEngine {
    /// Starts afresh at a part that begins without the parts before it; `checkpoint`, when the part begins
    /// with one, gives the transport. Subscriptions, the summary and the derived changes so far stay; what
    /// waited for an answer is dropped.
    package mutating func startWithoutPredecessors(checkpoint: TraceCheckpoint?) {
        state.latest = nil
        state.baseline = .unknown
        state.speakers = []
        speakerLevels = [:]
        speakerIDs = []
        levelsIndexed = false
        state.speakersSeq = nil
        state.unmatchedChanges = []
        state.pendingSwitches = []
        obligations.unansweredSnapshots = []
        obligations.sentSwitches = []
        state.baselineFromBefore = true
        state.speakersFromBefore = true
        // The part comes from a running session: its transport was connected before (Q7).
        state.connectedBefore = true
        if let transport = checkpoint?.transport {
            state.vendor = transport.engine
            state.transport = transport.state
        }
        // Without a checkpoint the engine and the transport are what the part's own records say, once they do.
        state.vendorFromBefore = checkpoint?.transport == nil
        state.transportFromBefore = checkpoint?.transport == nil
    }

    /// A checkpoint met while the state before it was unknown (since the record at `unknownSince`): the
    /// transport and engine no record has set since then are the checkpoint's; what the records derived
    /// stays.
    package mutating func takeTransport(from cp: TraceCheckpoint, unknownSince: Int) {
        guard let transport = cp.transport else { return }
        if (state.vendorSeq ?? .min) < unknownSince { state.vendor = transport.engine }
        if (state.transportSeq ?? .min) < unknownSince { state.transport = transport.state }
        state.vendorFromBefore = false
        state.transportFromBefore = false
    }

    /// The fields of a checkpoint the quality engine knows that disagree with what it derived.
    package func checkpointDifferences(_ cp: TraceCheckpoint) -> [CheckpointDifference] {
        guard let transport = cp.transport, state.transportSeq != nil || state.vendorSeq != nil else { return [] }
        let theirs = "\(transport.engine.rawValue)/\(transport.state.rawValue)"
        let mine = "\(state.vendor.rawValue)/\(state.transport.rawValue)"
        return theirs == mine ? [] : [CheckpointDifference(field: "transport", checkpoint: theirs, derived: mine)]
    }
}
