import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// Every tunable of a replay: the engines' options and the comparison's.
package struct ReplayOptions: Sendable, Equatable {
    /// Route engine options (retry delay D, recovery window).
    package var route: RouteEngine.Options
    /// Quality engine options (match window, flapping, layer confirmation timeout, hysteresis).
    package var quality: QualityEngine.Options
    /// A divergence counts once it has lasted longer than this (X2), in ms.
    package var toleranceMs: Int64
    /// Findings kept in full; beyond this only their counts by code are kept.
    package var maxFindings: Int
    /// Whether findings are built and kept (up to `maxFindings`); without, a replay only counts them: by
    /// code, and the errors among the first `maxFindings` (`ReplayResult.keptErrorFindings`), which is all
    /// a caller that reads no finding needs (a triage row).
    package var buildsFindings = true
    /// Route timeline segments kept (for reports); beyond this the timeline is summarised.
    package var maxTimelineSegments: Int
    /// Verdicts kept in full; beyond this they are counted (by kind and cause) only.
    package var maxVerdicts: Int
    /// Divergences kept in full; beyond this they are counted (explained and unexplained) only.
    package var maxDivergences: Int
    /// Distinct strings the replay compares (uids, track ids, device ids and names) it keeps; past this,
    /// every new string counts as one, and the result says so (`trace.limitExceeded`).
    package var maxDistinctStrings = SymbolTable.defaultMaxSymbols

    /// The match window (quality.spuriousChange / missedChange, and R12's window before an unexplained
    /// route change): one option, held by both engines' options.
    package var matchWindowMs: Int64 {
        get { quality.matchWindowMs }
        set {
            quality.matchWindowMs = newValue
            route.matchWindowMs = newValue
        }
    }

    /// Creates options with the contract's defaults.
    package init(route: RouteEngine.Options = .init(), quality: QualityEngine.Options = .init(), toleranceMs: Int64 = 500,
                maxFindings: Int = 2000, maxTimelineSegments: Int = 20000, maxVerdicts: Int = 5000,
                maxDivergences: Int = 5000) {
        self.route = route
        self.quality = quality
        self.toleranceMs = toleranceMs
        self.maxFindings = maxFindings
        self.maxTimelineSegments = maxTimelineSegments
        self.maxVerdicts = maxVerdicts
        self.maxDivergences = maxDivergences
    }
}
