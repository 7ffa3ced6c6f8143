import QualityEngine
import Analysis
import Replay
import SystemLayer
import TraceCodec
import TraceModel

/// The options every replaying command shares: each tunable the contract names.
public enum ReplayFlags {
    /// What the input lacks when no all-clear is given for it (`ReplayResult.unread`), for `--help` and the README.
    public static let unreadInput = "a lost frame, more than \(fixed(ReplayResult.undecodableShareLimit * 100, 0))% of the records "
        + "undecodable, missing seqs, a torn last frame"

    public static let tolerance = Option.integer("--tolerance-ms", "ms", OptionRange.windowMs,
                                          "A divergence counts once it lasts longer than this (X2; default 500).")
    public static let retryDelay = Option.integer("--retry-delay-ms", "ms", OptionRange.windowMs,
                                           "Recovery retry after the system call ends (I3, D; default 2000).")
    public static let recoveryWindow = Option.integer("--recovery-window-ms", "ms", OptionRange.windowMs,
                                               "interruption.notRecovered window (default 5000).")
    public static let matchWindow = Option.integer("--match-window-ms", "ms", OptionRange.windowMs,
                                            "quality.spuriousChange / missedChange window (default 1000).")
    public static let flappingChanges = Option.integer("--flapping-changes", "n", OptionRange.count(from: 0),
                                                "quality.flapping: more than N level changes… (default 4).")
    public static let flappingWindow = Option.integer("--flapping-window-ms", "ms", OptionRange.windowMs,
                                               "…within this window (default 30000).")
    public static let layerTimeout = Option.integer("--layer-timeout-ms", "ms", OptionRange.windowMs,
                                             "L3 confirmation timeout (default 3000).")
    public static let hysteresis = Option<Hysteresis>.shaped(
        "--hysteresis", "k/n/holdMs",
        shape: "Range: 1 ≤ k ≤ n ≤ \(maxHysteresisReports), holdMs \(OptionRange.text(OptionRange.windowMs)).",
        "Also model a 'poor network' prompt raised on k of n reports, cleared after holdMs (e.g. 3/5/10000).",
        invalid: hysteresisShape, parse: parseHysteresis)

    /// The engine keeps the last n reports as the bits of one 64-bit word.
    public static let maxHysteresisReports = 64
    public static let hysteresisShape = "is not k/n/holdMs with 1 ≤ k ≤ n ≤ \(maxHysteresisReports) and holdMs "
        + "\(OptionRange.text(OptionRange.windowMs)) (e.g. 3/5/10000)"

    public static let options: [any DeclaredOption] = [tolerance, retryDelay, recoveryWindow, matchWindow, flappingChanges, flappingWindow, layerTimeout, hysteresis]

    /// `k/n/holdMs` within its ranges, or nil.
    public static func parseHysteresis(_ s: String) -> Hysteresis? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false).map { Int64($0) }
        guard parts.count == 3, let k = parts[0], let n = parts[1], let hold = parts[2],
              1 <= k, k <= n, n <= Int64(maxHysteresisReports), OptionRange.windowMs.contains(hold) else { return nil }
        return Hysteresis(k: Int(k), n: Int(n), holdMs: hold)
    }

    /// The replay options given on the command line (checked when parsed).
    public static func parse(_ a: Arguments) -> ReplayOptions {
        var o = ReplayOptions()
        if let v = a[tolerance] { o.toleranceMs = v }
        if let v = a[retryDelay] { o.route.retryDelayMs = v }
        if let v = a[recoveryWindow] { o.route.recoveryWindowMs = v }
        if let v = a[matchWindow] { o.quality.matchWindowMs = v }
        if let v = a[flappingWindow] { o.quality.flappingWindowMs = v }
        if let v = a[layerTimeout] { o.quality.layerConfirmTimeoutMs = v }
        if let v = a[flappingChanges] { o.quality.flappingChanges = Int(v) }
        if let h = a[hysteresis] { o.quality.hysteresis = h }
        return o
    }

    /// Command-line arguments that give exactly `o` (for a child process that must replay the same way).
    public static func arguments(for o: ReplayOptions) -> [String] {
        var args = [tolerance.name, String(o.toleranceMs), retryDelay.name, String(o.route.retryDelayMs),
                    recoveryWindow.name, String(o.route.recoveryWindowMs), matchWindow.name, String(o.quality.matchWindowMs),
                    flappingWindow.name, String(o.quality.flappingWindowMs), layerTimeout.name, String(o.quality.layerConfirmTimeoutMs),
                    flappingChanges.name, String(o.quality.flappingChanges)]
        if let h = o.quality.hysteresis { args += [hysteresis.name, "\(h.k)/\(h.n)/\(h.holdMs)"] }
        return args
    }

    /// Replays the trace the TRACE arguments name (one file, or the parts of one session), warning
    /// on the context's standard error about reader problems and about a part replayed alone.
    public static func replay(_ arguments: [String], _ a: Arguments, in context: CommandContext,
                              observer: ((ReplayStep) -> Void)? = nil) throws -> ReplayResult {
        let parts = try TraceParts.resolve(arguments, in: context)
        let result: ReplayResult
        if parts.paths.count > 1 {
            let replay = Replay.run(parts: parts.paths, options: parse(a), pipelined: readOnItsOwnCore, observer: observer)
            if a[CommonOptions.strict], let p = replay.result.problems.first { throw CommandFailure(message: p.description + " (--strict)") }
            for p in replay.result.problems { context.warn(p) }
            result = replay.result
        } else {
            result = try replay(parts.paths[0], a, in: context, observer: observer)
        }
        if let why = Wording.incompleteSession(result) {
            context.err.line("warning: " + terminalSafe(why) + " (" + completeSessionHint(result) + ")")
        }
        return result
    }

    /// How to replay the whole session: name the parts missing between those given (their folder was
    /// perhaps given already), else ask for every part.
    static func completeSessionHint(_ r: ReplayResult) -> String {
        let missing = r.session?.missing.flatMap { Array($0.parts) } ?? []
        guard !missing.isEmpty else { return "give every part, or their folder, to replay the session as one trace" }
        let listed = missing.count == 1 ? "part \(missing[0]) is" : "parts " + missing.map(String.init).joined(separator: ", ") + " are"
        return "\(listed) not among the files given: add \(missing.count == 1 ? "it" : "them") to replay the session as one trace"
    }

    /// Whether a single replay reads and decodes on a second core while it replays: when the process may
    /// run on two processors or more (`taskset -c 0` keeps it on one thread).
    static var readOnItsOwnCore: Bool { CurrentProcess.usableProcessorCount >= 2 }

    /// Replays one trace file, warning on the context's standard error about reader problems.
    public static func replay(_ path: String, _ a: Arguments, in context: CommandContext,
                              observer: ((ReplayStep) -> Void)? = nil) throws -> ReplayResult {
        let options = parse(a)
        do {
            return try Replay.run(path: path, options: options, strict: a[CommonOptions.strict], pipelined: readOnItsOwnCore,
                                  observer: observer, onProblem: context.warn)
        } catch let p as TraceProblem {
            throw CommandFailure(message: p.description + " (--strict)")
        } catch let e as CommandFailure {
            throw e
        } catch {
            throw commandError(error)
        }
    }

    /// Refuses a result with nothing to judge by (not a trace, no header, no records): exit 65.
    public static func requireExplainable(_ r: ReplayResult) throws {
        guard let why = r.unexplainable else { return }
        throw DataError(message: "\(r.file): cannot be explained: \(why)")
    }
}
