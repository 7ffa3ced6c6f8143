import CommandLineKit
import QualityEngine
import Replay

/// The replay options on the command line: each tunable the contract names, declared once for `--help`
/// and parsing.
extension ReplayOptions {
    static let tolerance = Option.integer("--tolerance-ms", "ms", OptionRange.windowMs,
                                          WorkflowHelpWords.aDivergenceCountsOnceItLasts)
    static let retryDelay = Option.integer("--retry-delay-ms", "ms", OptionRange.windowMs,
                                           WorkflowHelpWords.recoveryRetryAfterTheSystemCall)
    static let recoveryWindow = Option.integer("--recovery-window-ms", "ms", OptionRange.windowMs,
                                               "interruption.notRecovered window (default 5000).")
    static let matchWindow = Option.integer("--match-window-ms", "ms", OptionRange.windowMs,
                                            WorkflowHelpWords.qualitySpuriouschangeMissedchangeWindowDefault)
    static let flappingChanges = Option.integer("--flapping-changes", "n", OptionRange.count(from: 0),
                                                WorkflowHelpWords.qualityFlappingMoreThanLevelChanges)
    static let flappingWindow = Option.integer("--flapping-window-ms", "ms", OptionRange.windowMs,
                                               WorkflowHelpWords.withinThisWindowDefault)
    static let layerTimeout = Option.integer("--layer-timeout-ms", "ms", OptionRange.windowMs,
                                             WorkflowHelpWords.lConfirmationTimeoutDefault)
    static let hysteresis = Option<Hysteresis>.shaped(
        "--hysteresis", "k/n/holdMs",
        shape: "Range: 1 ≤ k ≤ n ≤ \(maxHysteresisReports), holdMs \(OptionRange.text(OptionRange.windowMs)).",
        WorkflowHelpWords.alsoModelAPoorNetworkPrompt,
        invalid: hysteresisShape, parse: parseHysteresis)

    /// The engine keeps the last n reports as the bits of one 64-bit word.
    static let maxHysteresisReports = 64
    static let hysteresisShape = "is not k/n/holdMs with 1 ≤ k ≤ n ≤ \(maxHysteresisReports) and holdMs "
        + "\(OptionRange.text(OptionRange.windowMs)) (e.g. 3/5/10000)"

    /// The replay options every replaying command declares, in `--help` order.
    package static let commandLine: [any DeclaredOption] = [tolerance, retryDelay, recoveryWindow, matchWindow, flappingChanges, flappingWindow, layerTimeout, hysteresis]

    /// `k/n/holdMs` within its ranges, or nil.
    static func parseHysteresis(_ s: String) -> Hysteresis? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false).map { Int64($0) }
        guard parts.count == 3, let k = parts[0], let n = parts[1], let hold = parts[2],
              1 <= k, k <= n, n <= Int64(maxHysteresisReports), OptionRange.windowMs.contains(hold) else { return nil }
        return Hysteresis(k: Int(k), n: Int(n), holdMs: hold)
    }

    /// The replay options given on the command line (checked when parsed).
    package init(_ a: Arguments) {
        var o = ReplayOptions()
        if let v = a[Self.tolerance] { o.toleranceMs = v }
        if let v = a[Self.retryDelay] { o.route.retryDelayMs = v }
        if let v = a[Self.recoveryWindow] { o.route.recoveryWindowMs = v }
        if let v = a[Self.matchWindow] { o.quality.matchWindowMs = v }
        if let v = a[Self.flappingWindow] { o.quality.flappingWindowMs = v }
        if let v = a[Self.layerTimeout] { o.quality.layerConfirmTimeoutMs = v }
        if let v = a[Self.flappingChanges] { o.quality.flappingChanges = Int(v) }
        if let h = a[Self.hysteresis] { o.quality.hysteresis = h }
        self = o
    }

    /// Command-line arguments that give exactly these options (for a child process that must replay the same way).
    package var commandLineArguments: [String] {
        let o = self
        var args = [Self.tolerance.name, String(o.toleranceMs), Self.retryDelay.name, String(o.route.retryDelayMs),
                    Self.recoveryWindow.name, String(o.route.recoveryWindowMs), Self.matchWindow.name, String(o.quality.matchWindowMs),
                    Self.flappingWindow.name, String(o.quality.flappingWindowMs), Self.layerTimeout.name, String(o.quality.layerConfirmTimeoutMs),
                    Self.flappingChanges.name, String(o.quality.flappingChanges)]
        if let h = o.quality.hysteresis { args += [Self.hysteresis.name, "\(h.k)/\(h.n)/\(h.holdMs)"] }
        return args
    }
}
