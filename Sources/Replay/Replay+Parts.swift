import TraceCodec
import TraceModel

/// A replay of one trace that may span several files: the parts of one recorded session.
public struct PartsReplay: Sendable {
    /// The replay of every part's records, as one trace.
    public var result: ReplayResult
    /// Reader problems by kind, over all parts (not capped): the result's.
    public var problemsByKind: [TraceProblem.Kind: Int] { result.problemsByKind }
    /// Parts that could be opened.
    public var partsOpened = 0

    /// A replay's product from a result (one built from records in memory, such as an edited trace's).
    public init(result: ReplayResult, partsOpened: Int = 0) {
        self.result = result
        self.partsOpened = partsOpened
    }
}
