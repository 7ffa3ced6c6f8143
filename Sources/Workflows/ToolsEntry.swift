import Analysis
import Reports
import TraceCodec

// The Tools SPI of Workflows (docs/architecture.md, "The Tools SPI"): the golden check as fuzz/ runs it,
// for a package of its own that cannot see this package's `package` declarations. Nothing else uses it.

/// The golden check for a tool.
@_spi(Tools) public enum ToolsGoldenCheck {
    /// Checks the trace at `path` against its snapshot, as `check` does (`GoldenCheck.check`), and renders
    /// the outcome as `check --junit` does (`JUnitXML`).
    @_spi(Tools) public static func junit(checking path: String) -> String {
        Renderers.checkOutcomes(.junit)!.render([GoldenCheck.check(TraceSession(path: path))])
    }
}
