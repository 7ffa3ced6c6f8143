@_spi(Tools) import Replay

// The Tools SPI of Analysis (docs/architecture.md, "The Tools SPI"): the explanation as benchmarks/ times it,
// for a package of its own that cannot see this package's `package` declarations. Nothing else uses it.

/// The explanation of a replay for a tool: an `Explanation`, opaque.
@_spi(Tools) public struct ToolsExplanation {
    /// The explanation.
    package let explanation: Explanation

    /// Decides what a reader is told about the result (`Explanation.init`), as every report does.
    @_spi(Tools) public init(_ r: ToolsReplayResult) { explanation = Explanation(r.result) }
}
