import Contract
import TraceModel

// A restart: a session part begun by a recorder restarted after a crash (`session.resumed`).
extension QualityEngine {
    /// What lived only in the SDK's process that died starts afresh (trace-format, since version 3): the
    /// latest evaluation and the level-change baseline, the speaker set, the transport (the new process
    /// connects anew: its first `connected` is no reconnect), and the derived changes, snapshots and
    /// layer switches still waiting for the dead process's answer. No change or snapshot is derived.
    package mutating func processRestarted() {
        state.latest = nil
        state.baseline = .unknown
        state.speakers = []
        state.speakersSeq = nil
        state.transport = .connecting
        state.transportSeq = nil
        state.transportFromBefore = false
        state.connectedBefore = false
        state.unmatchedChanges = []
        obligations.unansweredSnapshots = []
        obligations.heldSnapshots = []
        state.pendingSwitches = []
        obligations.sentSwitches = []
    }
}
