import TraceModel

/// What a trace holds of the device's system log, for `info` (laid out by `Reports`): how many `sys.*` records,
/// about how many processes, and how their times were placed (anchored or by the wall clock) with the
/// uncertainty stated.
package struct SystemLogSummary: Sendable {
    /// `sys.*` records seen.
    package private(set) var records = 0
    /// Of those, the app's own.
    package private(set) var own = 0
    /// The processes they are about (at most `bound`).
    package private(set) var processes: Set<String> = []
    /// Records by how their time was placed.
    package private(set) var bySource: [SystemLogTimeSource: Int] = [:]
    /// The largest uncertainty stated, by how the time was placed.
    package private(set) var uncertaintyMs: [SystemLogTimeSource: Int64] = [:]
    static let bound = 1000

    /// Creates an empty summary.
    package init() {}

    /// Notes one record (any type; only `sys.*` counts).
    package mutating func observe(_ r: Record) {
        guard case .system(let s) = r.body else { return }
        records += 1
        if s.isSelf { own += 1 }
        if processes.count < Self.bound { processes.insert(s.process) }
        bySource[s.timeSource, default: 0] += 1
        if let u = s.uncertaintyMs { uncertaintyMs[s.timeSource] = max(uncertaintyMs[s.timeSource] ?? 0, u) }
    }
}
