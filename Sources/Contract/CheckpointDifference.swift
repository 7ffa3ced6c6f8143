/// One field of a `trace.checkpoint` that disagrees with the state the replay derived from the records
/// before it (`trace.checkpointMismatch` names each).
public struct CheckpointDifference: Equatable, Sendable {
    /// The field, as the format names it (`engaged`, `override`, `transport`, …).
    public var field: String
    /// What the checkpoint says.
    public var checkpoint: String
    /// What the replay derived.
    public var derived: String

    /// Creates a difference.
    public init(field: String, checkpoint: String, derived: String) {
        self.field = field
        self.checkpoint = checkpoint
        self.derived = derived
    }
}
