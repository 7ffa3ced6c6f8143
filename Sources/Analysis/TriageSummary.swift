/// What a triage run found over all its traces, in memory that does not grow with their number:
/// counts per tag, per SDK version and per OS version (each table capped), and the few traces to
/// open first.
public struct TriageSummary: Sendable {
    /// Traces seen (rows), readable or not.
    public private(set) var traces = 0
    /// Traces that could be judged (neither unreadable nor not a trace).
    public private(set) var readable = 0
    /// Records read over all traces.
    public private(set) var records = 0
    /// Traces per tag.
    public private(set) var tagCounts: [TriageTag: Int] = [:]
    /// Readable traces per SDK version, with their tags.
    public private(set) var bySDK: [String: Breakdown] = [:]
    /// Readable traces per OS version, with their tags.
    public private(set) var byOS: [String: Breakdown] = [:]
    /// The traces to open first, most urgent first (at most `openFirstCap`).
    public private(set) var openFirst: [Urgent] = []

    /// How many traces `openFirst` keeps.
    public static let openFirstCap = 10
    /// Distinct versions a breakdown keeps by name; the rest are counted under `otherVersions`.
    public static let versionCap = 1000
    /// The breakdown key for versions beyond `versionCap`.
    public static let otherVersions = "(other versions)"
    /// The breakdown key for traces whose header does not say.
    public static let unknownVersion = "(unknown)"

    /// Traces of one SDK or OS version and their tags.
    public struct Breakdown: Sendable, Equatable {
        /// Readable traces of this version.
        public var traces = 0
        /// Traces per tag.
        public var tagCounts: [TriageTag: Int] = [:]
    }

    /// A trace worth opening first: unexplained divergences, then errors.
    public struct Urgent: Sendable, Equatable {
        /// The trace's path.
        public var path: String
        /// Its part count (1 for a single file).
        public var parts: Int
        /// Unexplained divergences.
        public var unexplainedDivergences: Int
        /// Error findings other than divergences.
        public var errors: Int
        /// Its tags, for the reader's orientation.
        public var tags: [TriageTag]
    }

    /// An empty summary.
    public init() {}

    /// Counts one row in.
    public mutating func add(_ row: TriageRow) {
        traces += 1
        records += row.records
        for t in row.tags { tagCounts[t, default: 0] += 1 }
        guard row.readable else { return }
        readable += 1
        Self.count(row, key: row.sdk, into: &bySDK)
        Self.count(row, key: row.os, into: &byOS)
        if row.unexplainedDivergences > 0 || row.errors > 0 {
            let u = Urgent(path: row.path, parts: max(row.parts.count, 1), unexplainedDivergences: row.unexplainedDivergences,
                           errors: row.errors, tags: row.tags)
            // Ties keep arrival order, which is path order.
            let i = openFirst.firstIndex { Self.moreUrgent(u, than: $0) } ?? openFirst.count
            if i < Self.openFirstCap {
                openFirst.insert(u, at: i)
                if openFirst.count > Self.openFirstCap { openFirst.removeLast() }
            }
        }
    }

    static func moreUrgent(_ a: Urgent, than b: Urgent) -> Bool {
        (a.unexplainedDivergences, a.errors) > (b.unexplainedDivergences, b.errors)
    }

    private static func count(_ row: TriageRow, key: String?, into table: inout [String: Breakdown]) {
        var k = key ?? unknownVersion
        if table[k] == nil && table.count >= versionCap { k = otherVersions }
        table[k, default: Breakdown()].traces += 1
        for t in row.tags { table[k]!.tagCounts[t, default: 0] += 1 }
    }

    /// Traces the share of a tag is taken of: all of them for tags about the input, else the readable ones.
    public func denominator(for tag: TriageTag) -> Int { tag.describesInput ? traces : readable }

    /// Traces with the tag.
    public func count(_ tag: TriageTag) -> Int { tagCounts[tag] ?? 0 }

    /// The share of traces with the tag (0 when there are none to count).
    public func share(_ tag: TriageTag) -> Double {
        let d = denominator(for: tag)
        return d == 0 ? 0 : Double(count(tag)) / Double(d)
    }

    /// Tags present, most traces first (ties in taxonomy order).
    public var rankedTags: [(tag: TriageTag, traces: Int)] {
        tagCounts.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }

    /// Versions, most traces first (ties by name).
    public static func ranked(_ table: [String: Breakdown]) -> [(version: String, breakdown: Breakdown)] {
        table.sorted { ($0.value.traces, $1.key) > ($1.value.traces, $0.key) }.map { ($0.key, $0.value) }
    }
}
