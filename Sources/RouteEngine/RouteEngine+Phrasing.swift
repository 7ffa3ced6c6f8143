import Contract
import TraceModel

// What every finding of the route engine is phrased with: the layer's words (docs/contract.md, "Words"),
// which `FindingWords` takes, and the records a finding cites.
extension RouteEngine {
    var words: LayerWords { LayerWords(state.layer) }

    func seqs(_ first: Int, _ rest: Int?...) -> [Int] {
        [first] + rest.compactMap { $0 }.filter { $0 != first }
    }
}
