// The words of the `replay` timeline. Each sentence once.

enum TimelineWords {
    static let endOfTrace = "end of trace"
    static let noRouteDivergences = "no route divergences\n"
    static let unknownStartState = "unknown start state"
    static let uncertainEvidenceLost = "uncertain (evidence lost)"
}
