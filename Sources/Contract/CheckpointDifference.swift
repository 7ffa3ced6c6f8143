/// One field of a `trace.checkpoint` that disagrees with the state the replay derived from the records
/// before it (`trace.checkpointMismatch` names each).
package struct CheckpointDifference: Equatable, Sendable {
    /// The field, as the format names it (`engaged`, `override`, `transport`, …).
    package var field: String
    /// What the checkpoint says.
    package var checkpoint: String
    /// What the replay derived.
    package var derived: String

    /// Creates a difference.
    package init(field: String, checkpoint: String, derived: String) {
        self.field = field
        self.checkpoint = checkpoint
        self.derived = derived
    }
}
