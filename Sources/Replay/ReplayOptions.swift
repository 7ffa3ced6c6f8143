import Contract
import QualityEngine
import RouteEngine
import TraceModel

/// Every tunable of a replay: the engines' options and the comparison's.
public struct ReplayOptions: Sendable, Equatable {
    /// Route engine options (retry delay D, recovery window).
    public var route: RouteEngine.Options
    /// Quality engine options (match window, flapping, layer confirmation timeout, hysteresis).
    public var quality: QualityEngine.Options
    /// A divergence counts once it has lasted longer than this (X2), in ms.
    public var toleranceMs: Int64
    /// Findings kept in full; beyond this only their counts by code are kept.
    public var maxFindings: Int
    /// Route timeline segments kept (for reports); beyond this the timeline is summarised.
    public var maxTimelineSegments: Int
    /// Verdicts kept in full; beyond this they are counted (by kind and cause) only.
    public var maxVerdicts: Int
    /// Divergences kept in full; beyond this they are counted (explained and unexplained) only.
    public var maxDivergences: Int
    /// Distinct strings the replay compares (uids, track ids, device ids and names) it keeps; past this,
    /// every new string counts as one, and the result says so (`trace.limitExceeded`).
    public var maxDistinctStrings = SymbolTable.defaultMaxSymbols

    /// The match window (quality.spuriousChange / missedChange, and R12's window before an unexplained
    /// route change): one option, held by both engines' options.
    public var matchWindowMs: Int64 {
        get { quality.matchWindowMs }
        set {
            quality.matchWindowMs = newValue
            route.matchWindowMs = newValue
        }
    }

    /// Creates options with the contract's defaults.
    public init(route: RouteEngine.Options = .init(), quality: QualityEngine.Options = .init(), toleranceMs: Int64 = 500,
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
