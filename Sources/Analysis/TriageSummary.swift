import Contract
import TraceCodec
import TraceModel

/// What a triage run found over all its traces, in memory that does not grow with their number:
/// counts per tag, per SDK version, OS version and device model (each table capped), the same within
/// each product (`TriageProduct`) for the regressions, the distinct problem signatures with an example
/// of each (capped), and what was skipped or repeated.
///
/// Rows may come in any order: every count is a sum, and the example of a signature is the row whose
/// path sorts first, so the rows of shards give the summary of one run (`TriageRowsInput`). Only past a
/// cap (more than `signatureCap` signatures, `versionCap` versions, `clusterCap` content clusters) does
/// the order decide which are kept by name.
package struct TriageSummary: Sendable {
    /// Rows seen, readable or not, duplicates included.
    package private(set) var traces = 0
    /// Rows that repeat an earlier row's bytes (the same upload twice): counted once, here.
    package private(set) var duplicates = 0
    /// Traces that could be judged (neither unreadable nor not a trace), duplicates left out.
    package private(set) var readable = 0
    /// Records read over all traces (duplicates left out).
    package private(set) var records = 0
    /// Traces per tag (a duplicate counts only as `duplicate-upload`).
    package private(set) var tagCounts: [TriageTag: Int] = [:]
    /// Readable traces per tag: the fleet the breakdowns are compared with.
    package private(set) var readableTagCounts: [TriageTag: Int] = [:]
    /// Readable traces per SDK version, with their tags.
    package private(set) var bySDK: [String: Breakdown] = [:]
    /// Readable traces per OS version, with their tags.
    package private(set) var byOS: [String: Breakdown] = [:]
    /// Readable traces per device model, with their tags.
    package private(set) var byDevice: [String: Breakdown] = [:]
    /// Readable traces per product, with their versions, OS versions and device models: what the
    /// regressions compare (`TriageRegressions`) and what a baseline period is compared with (`TriageChanges`).
    package private(set) var products: [TriageProduct: ProductCounts] = [:]
    /// Readable traces per finding code (of any severity).
    package private(set) var findingTraces: [FindingCode: Int] = [:]
    /// What the `--whatif` edits would resolve (empty without them).
    package private(set) var whatif = TriageWhatIfTally()
    /// Distinct content clusters kept over all groups (`clusterCap` at most).
    var clusterKeys = 0
    /// The distinct problem signatures, by key.
    private var clusters: [Signature: Cluster] = [:]
    /// Traces whose signature came after `signatureCap` others.
    package private(set) var tracesOfOtherSignatures = 0
    /// Why a file in a folder given got no row (the walk's table, `TriageInputs.SkipReason`).
    package typealias SkipReason = TriageInputs.SkipReason

    /// Files in the folders given that got no row (a name that is not a trace's, a hidden file, a FIFO,
    /// device, socket or kernel file), the first `skippedCap` in byte order, each with why.
    package private(set) var skipped: [TriageInputs.Skipped] = []
    /// How many there were, over every reason.
    package private(set) var skippedCount = 0
    /// How many there were by reason.
    package private(set) var skippedByReason: [TriageInputs.SkipReason: Int] = [:]
    /// The paths of `skipped`, in byte order.
    package var skippedFiles: [String] { skipped.map(\.path) }

    /// How many entries `openFirst` lists.
    package static let openFirstCap = 10
    /// Distinct signatures kept; traces of further ones are only counted.
    package static let signatureCap = 1000
    /// Distinct versions a breakdown keeps by name; the rest are counted under `otherVersions`.
    package static let versionCap = 1000
    /// Skipped file names kept.
    package static let skippedCap = 100
    /// Content clusters (an app and a problem) counted by name over all groups; traces of further ones
    /// are counted in their group, in no cluster.
    package static let clusterCap = 100_000
    /// The breakdown key for versions beyond `versionCap`.
    package static let otherVersions = "(other versions)"
    /// The breakdown key for traces whose header does not say.
    package static let unknownVersion = "(unknown)"

    /// Traces of one SDK or OS version (or device model) and their tags.
    package struct Breakdown: Sendable, Equatable {
        /// Readable traces of this version.
        package var traces = 0
        /// Traces per tag.
        package var tagCounts: [TriageTag: Int] = [:]
    }

    /// The problem a trace shows, as far as "open first" is concerned: the finding codes of severity
    /// error it has (other than route divergences), whether it has an unexplained divergence, and
    /// whether it is damaged, missing records the recorder dropped, or judged in part (such traces are
    /// told apart and listed last).
    package struct Signature: Hashable, Sendable {
        /// Error-level finding codes, sorted.
        package var codes: [FindingCode]
        /// Whether the trace has an unexplained divergence.
        package var unexplainedDivergence: Bool
        /// Whether the trace is damaged, missing records the recorder dropped, or part of a session judged without the rest.
        package var compromised: Bool

        /// The signature of a row; nil when it has no error and no unexplained divergence.
        package init?(_ row: TriageRow) {
            codes = row.findings.filter { $0.value > 0 && $0.key != .routeDivergence && $0.key.severity == .error }.keys.sorted()
            unexplainedDivergence = row.unexplainedDivergences > 0
            compromised = row.compromised
            if codes.isEmpty && !unexplainedDivergence { return nil }
        }

        /// In words: `unexplained divergence + interruption.notRecovered`.
        package var description: String {
            ((unexplainedDivergence ? ["unexplained divergence"] : []) + codes.map(\.rawValue)).joined(separator: " + ")
        }

        /// The whole signature in words, as rows carry it (`signature`): the description, and
        /// ` (damaged or partial)` for a compromised trace.
        package var key: String { description + (compromised ? TriageRowWords.compromisedSuffix : "") }
    }

    /// Traces that share a signature, with the one to open.
    package struct Cluster: Sendable, Equatable {
        /// The signature.
        package var signature: Signature
        /// Traces with it.
        package var traces: Int
        /// The example: the first in path order.
        package var example: Urgent
    }

    /// A trace worth opening: its path, part count, counts and tags.
    package struct Urgent: Sendable, Equatable {
        /// The trace's path (its first part's, for a session).
        package var path: String
        /// Its part count (1 for a single file).
        package var parts: Int
        /// The command that opens the whole trace (the row's `command`): `rtctrace explain` and the file;
        /// for a session recorded as several files, their folder when it holds those parts and no other
        /// trace, else every part.
        package var command: String
        /// Unexplained divergences.
        package var unexplainedDivergences: Int
        /// Error findings other than divergences.
        package var errors: Int
        /// Its tags, for the reader's orientation.
        package var tags: [TriageTag]
    }

    /// An empty summary.
    package init() {}

    /// Counts one row in, in any order (the example of a signature is the row whose path sorts first).
    package mutating func add(_ row: TriageRow) {
        traces += 1
        if row.duplicateOf != nil {
            duplicates += 1
            tagCounts[.duplicateUpload, default: 0] += 1
            return
        }
        records += row.records
        for t in row.tags { tagCounts[t, default: 0] += 1 }
        guard row.readable else { return }
        readable += 1
        for t in row.tags { readableTagCounts[t, default: 0] += 1 }
        Self.count(row, key: row.sdk, into: &bySDK)
        Self.count(row, key: row.os, into: &byOS)
        Self.count(row, key: row.device, into: &byDevice)
        for (code, n) in row.findings where n > 0 { findingTraces[code, default: 0] += 1 }
        whatif.add(row)
        let signature = Signature(row)
        if let product = TriageProduct(row) {
            let cluster = ContentCluster(row, signature: signature)
            products[product, default: ProductCounts()].add(row, signature: signature, cluster: cluster, keys: &clusterKeys)
        }
        guard let signature else { return }
        let u = Urgent(path: row.path, parts: row.partCount, command: row.command ?? Triage.command(naming: row.parts.isEmpty ? [row.path] : row.parts),
                       unexplainedDivergences: row.unexplainedDivergences, errors: row.errors, tags: row.tags)
        if var c = clusters[signature] {
            c.traces += 1
            if Self.pathPrecedes(u.path, c.example.path) { c.example = u }
            clusters[signature] = c
        } else if clusters.count < Self.signatureCap {
            clusters[signature] = Cluster(signature: signature, traces: 1, example: u)
        } else {
            tracesOfOtherSignatures += 1
        }
    }

    /// Byte order of paths: the order of rows.
    static func pathPrecedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// The names a folder walk looks for, for messages: `*.jsonl, *.zst`.
    package static var traceNames: String { TriageInputs.traceSuffixes.map { "*" + $0 }.joined(separator: ", ") }

    /// Notes the files a folder walk passed by: each is counted under its reason, and the first
    /// `skippedCap` in byte order (the order of rows, whatever the order of the folder) are kept.
    package mutating func noteSkipped(_ entries: [TriageInputs.Skipped]) {
        skippedCount += entries.count
        for e in entries { skippedByReason[e.reason, default: 0] += 1 }
        skipped = Array((skipped + entries).sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }.prefix(Self.skippedCap))
    }

    /// Every signature with its count and example: intact traces first; then an unexplained divergence
    /// before errors alone, more traces before fewer, more error codes before fewer; damaged and partial
    /// traces last, in the same order; ties by the example's path.
    package var signatures: [Cluster] {
        clusters.values.sorted { a, b in
            let ka = (a.signature.compromised ? 1 : 0, a.signature.unexplainedDivergence ? 0 : 1)
            let kb = (b.signature.compromised ? 1 : 0, b.signature.unexplainedDivergence ? 0 : 1)
            if ka != kb { return ka < kb }
            if a.traces != b.traces { return a.traces > b.traces }
            if a.signature.codes.count != b.signature.codes.count { return a.signature.codes.count > b.signature.codes.count }
            if a.example.path != b.example.path { return Self.pathPrecedes(a.example.path, b.example.path) }
            return a.signature.key < b.signature.key
        }
    }

    /// The first `openFirstCap` signatures: one example each of a distinct problem (a screenful; every
    /// signature is in `signatures`).
    package var openFirst: [Cluster] { Array(signatures.prefix(Self.openFirstCap)) }

    private static func count(_ row: TriageRow, key: String?, into table: inout [String: Breakdown]) {
        var k = key ?? unknownVersion
        if table[k] == nil && table.count >= versionCap { k = otherVersions }
        table[k, default: Breakdown()].traces += 1
        for t in row.tags { table[k]!.tagCounts[t, default: 0] += 1 }
    }

    /// Traces the share of a tag is taken of: all of them for tags about the input, else the readable ones.
    package func denominator(for tag: TriageTag) -> Int { tag.describesInput ? traces : readable }

    /// Traces with the tag.
    package func count(_ tag: TriageTag) -> Int { tagCounts[tag] ?? 0 }

    /// The share of traces with the tag (0 when there are none to count).
    package func share(_ tag: TriageTag) -> Double {
        let d = denominator(for: tag)
        return d == 0 ? 0 : Double(count(tag)) / Double(d)
    }

    /// Tags present, most traces first (ties in taxonomy order).
    package var rankedTags: [(tag: TriageTag, traces: Int)] {
        tagCounts.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }

    /// Versions, most traces first (ties by name).
    package static func ranked(_ table: [String: Breakdown]) -> [(version: String, breakdown: Breakdown)] {
        table.sorted { ($0.value.traces, $1.key) > ($1.value.traces, $0.key) }.map { ($0.key, $0.value) }
    }

    /// The tags whose share in an SDK version, OS version or device model is higher than in its baseline
    /// within its product by more than chance (`TriageRegressions`).
    package var regressions: TriageRegressions { TriageRegressions(self) }

    /// What changed since a baseline period (`TriageChanges`).
    package func changes(since baseline: TriageSummary) -> TriageChanges { TriageChanges(self, since: baseline) }
}
