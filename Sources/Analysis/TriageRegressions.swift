/// Where a problem is more common than it should be: for each SDK version, OS version and device model,
/// the tags whose share of its readable traces is higher than in its baseline by more than chance.
///
/// The baseline of an SDK or OS version is the previous version of the same product in the fleet
/// (`SRTC 4.6.1` for `SRTC 4.6.2`: a regression), else the rest of the fleet (a cluster); a device model
/// is always compared with the rest of the fleet. Each (group, tag) pair where either side has the tag is
/// one test (`TwoProportionTest`); a difference is listed when its p-value is below `alpha` divided by
/// the number of tests made (Bonferroni: the chance that anything at all is listed by noise stays below
/// `alpha`), the group's share is the higher one, and at least `minimumTagged` of the group's traces
/// have the tag. Tags about the input (`not-a-trace`, `unreadable`, `duplicate-upload`) are not tested.
public struct TriageRegressions: Sendable {
    /// What a group is.
    public enum Dimension: String, Sendable, CaseIterable {
        case sdk, os, device

        /// For text: `SDK version`, `iOS version`, `device model`.
        public var title: String {
            switch self {
            case .sdk: "SDK version"
            case .os: "iOS version"
            case .device: "device model"
            }
        }
    }

    /// What a group is compared with.
    public enum Baseline: Sendable, Equatable {
        /// The previous version of the same product present in the fleet.
        case previousVersion(String)
        /// Every other readable trace.
        case restOfFleet
    }

    /// One listed difference.
    public struct Entry: Sendable, Equatable {
        /// The kind of group.
        public var dimension: Dimension
        /// The group (`SRTC 4.6.2`, `iOS 17.4`, `iPhone15,2`).
        public var group: String
        /// The tag.
        public var tag: TriageTag
        /// What the group was compared with.
        public var baseline: Baseline
        /// The counts, the test and its p-value.
        public var test: TwoProportionTest
    }

    /// The family-wise significance level.
    public static let alpha = 0.01
    /// The fewest traces of a group with the tag for it to be listed.
    public static let minimumTagged = 5

    /// The differences listed, most significant first (ties: larger difference, then group and tag).
    public private(set) var entries: [Entry] = []
    /// The tests made (the Bonferroni divisor).
    public private(set) var tests = 0
    /// The p-value a test had to be below: `alpha / tests`.
    public var threshold: Double { tests == 0 ? Self.alpha : Self.alpha / Double(tests) }

    /// The regressions and clusters of a summary.
    public init(_ s: TriageSummary) {
        var candidates: [Entry] = []
        for dimension in Dimension.allCases {
            let table: [String: TriageSummary.Breakdown] = switch dimension {
            case .sdk: s.bySDK
            case .os: s.byOS
            case .device: s.byDevice
            }
            for (group, b) in table where group != TriageSummary.unknownVersion && group != TriageSummary.otherVersions {
                let previous = dimension == .device ? nil : Self.previous(of: group, in: table.keys)
                let base: TriageSummary.Breakdown
                if let previous {
                    base = table[previous]!
                } else {
                    // The rest of the fleet: every readable trace not in this group.
                    var rest = TriageSummary.Breakdown(traces: s.readable - b.traces)
                    for (t, n) in s.readableTagCounts { rest.tagCounts[t] = n - (b.tagCounts[t] ?? 0) }
                    base = rest
                }
                guard b.traces > 0, base.traces > 0 else { continue }
                let tags = Set(b.tagCounts.filter { $0.value > 0 }.keys).union(base.tagCounts.filter { $0.value > 0 }.keys)
                for tag in tags where !tag.describesInput {
                    let test = TwoProportionTest(tagged: b.tagCounts[tag] ?? 0, traces: b.traces,
                                                 baselineTagged: base.tagCounts[tag] ?? 0, baselineTraces: base.traces)
                    tests += 1
                    candidates.append(Entry(dimension: dimension, group: group, tag: tag,
                                            baseline: previous.map { .previousVersion($0) } ?? .restOfFleet, test: test))
                }
            }
        }
        let threshold = self.threshold
        entries = candidates.filter { $0.test.p < threshold && $0.test.rate > $0.test.baselineRate && $0.test.tagged >= Self.minimumTagged }
            .sorted { a, b in
                if a.test.p != b.test.p { return a.test.p < b.test.p }
                let da = a.test.rate - a.test.baselineRate, db = b.test.rate - b.test.baselineRate
                if da != db { return da > db }
                return (a.dimension.rawValue, a.group, a.tag.rawValue) < (b.dimension.rawValue, b.group, b.tag.rawValue)
            }
    }

    /// The entries for one group, in order.
    public func entries(for dimension: Dimension, _ group: String) -> [Entry] {
        entries.filter { $0.dimension == dimension && $0.group == group }
    }

    /// The highest version below `group` of the same product among `groups`: `PRODUCT VERSION`, the
    /// product everything before the last space, versions compared by their numeric parts.
    public static func previous(of group: String, in groups: some Collection<String>) -> String? {
        guard let (product, version) = split(group) else { return nil }
        var best: (String, [Int])?
        for other in groups {
            guard let (p, v) = split(other), p == product, v.lexicographicallyPrecedes(version) else { continue }
            if best == nil || best!.1.lexicographicallyPrecedes(v) { best = (other, v) }
        }
        return best?.0
    }

    /// `("SRTC", [4, 6, 2])` for `SRTC 4.6.2`; nil without a numeric version after the last space.
    static func split(_ s: String) -> (String, [Int])? {
        guard let space = s.lastIndex(of: " ") else { return nil }
        let product = String(s[..<space])
        let parts = s[s.index(after: space)...].split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.map { Int($0) }
        guard !product.isEmpty, !numbers.isEmpty, numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return (product, numbers.map { $0! })
    }
}
