import Contract

/// Where a problem is more common than it should be, within each product (`TriageProduct`: layer and SDK
/// name): the tags whose share of a group's readable traces is higher than in its baseline by more than chance.
///
/// An SDK version is compared with the previous version of its product (a regression), and the oldest
/// version with all later ones (an old-version problem, fixed since); an OS version the same way among
/// the OS versions of its family (`iOS 17.5` after `iOS 17.4`) within the product; a device model with
/// the rest of the product (a cluster). A tag the grouping itself implies (its definition reads a header
/// field the grouping stands for, `TriageTag.reads`: `simulator-trace` for a simulator's model, `not-ios`
/// for macOS) is not tested for that grouping, nor are tags about the input.
///
/// Each (group, tag) pair where either side has the tag is one test (`TwoProportionTest`); a difference
/// is listed when its p-value is below `alpha` divided by the number of tests made (Bonferroni: the
/// chance that anything at all is listed by noise stays below `alpha`), the group's share is the higher
/// one, and at least `minimumTagged` of the group's traces have the tag. Entries are ranked by kind
/// (regressions first, then old-version problems, then clusters), then by the traces they added.
package struct TriageRegressions: Sendable {
    /// What a group is.
    package enum Dimension: String, Sendable, CaseIterable {
        case sdk, os, device

        /// For text: `SDK version`, `iOS version`, `device model`.
        package var title: String {
            switch self {
            case .sdk: "SDK version"
            case .os: "iOS version"
            case .device: "device model"
            }
        }

        /// The header fields a group of this dimension stands for: an OS version says the OS; a device
        /// model says the OS family and whether it is a simulator (a Mac's model, a simulator's `arm64`).
        package var determines: Set<TriageTag.HeaderField> {
            switch self {
            case .sdk: []
            case .os: [.os]
            case .device: [.os, .simulator]
            }
        }

        /// Whether a grouping of this dimension implies the tag, so that testing it would be a tautology.
        package func implies(_ tag: TriageTag) -> Bool { !tag.reads.isDisjoint(with: determines) }
    }

    /// What a group is compared with.
    package enum Baseline: Sendable, Equatable {
        /// The previous version of the same product (or OS family) present in the fleet: a regression.
        case previousVersion(String)
        /// Every later version, for the oldest: an old-version problem.
        case laterVersions([String])
        /// Every other readable trace of the product: a cluster.
        case restOfProduct

        /// The kind of entry this comparison makes.
        package var kind: Kind {
            switch self {
            case .previousVersion: .regression
            case .laterVersions: .oldVersion
            case .restOfProduct: .cluster
            }
        }
    }

    /// The kinds of entry, in the order they are listed.
    package enum Kind: String, Sendable, CaseIterable, Comparable {
        /// A version worse than the one before it: what a release broke.
        case regression
        /// The oldest version worse than every later one: what upgrading fixes.
        case oldVersion
        /// A device model worse than the rest of its product: hardware, firmware, or one app's traces.
        case cluster

        /// Listing order.
        package static func < (a: Kind, b: Kind) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// One listed difference.
    package struct Entry: Sendable, Equatable {
        /// The product the group belongs to.
        package var product: TriageProduct
        /// The kind of group.
        package var dimension: Dimension
        /// The group (`SRTC 4.6.2`, `iOS 17.4`, `iPhone15,2`).
        package var group: String
        /// The tag.
        package var tag: TriageTag
        /// What the group was compared with.
        package var baseline: Baseline
        /// The counts, the test and its p-value.
        package var test: TwoProportionTest
        /// The groups the baseline is made of (empty for the rest of the product).
        package var baselineGroups: [String]
        /// Every group of the dimension in the product (the rest of the product is these but the group).
        package var productGroups: [String]
        /// Every SDK version of the product (what a query selects the product by).
        package var productVersions: [String]
        /// The content cluster that holds more than half of the group's traces with the tag, with their
        /// number: the entry is that one app's one problem rather than the group's.
        package var cluster: (cluster: TriageSummary.ContentCluster, traces: Int)?

        /// The kind of entry.
        package var kind: Kind { baseline.kind }

        /// The DuckDB query that reproduces the entry's counts from the rows (`TriageQuery`).
        package var query: String { TriageQuery.reproducing(self) }

        /// The traces with the tag beyond what the baseline's share predicts for the group.
        package var added: Double { Double(test.tagged) - Double(test.traces) * test.baselineRate }

        /// The same comparison with the same counts (and the same driving cluster).
        package static func == (a: Entry, b: Entry) -> Bool {
            (a.product, a.dimension, a.group, a.tag, a.baseline) == (b.product, b.dimension, b.group, b.tag, b.baseline)
                && (a.test, a.baselineGroups, a.productGroups, a.productVersions) == (b.test, b.baselineGroups, b.productGroups, b.productVersions)
                && a.cluster?.cluster == b.cluster?.cluster && a.cluster?.traces == b.cluster?.traces
        }
    }

    /// Entries of one group that one content cluster drives, folded into one line (or one entry alone).
    package struct Line: Sendable {
        /// The entries, in rank order.
        package var entries: [Entry]
        /// The cluster that drives them all; nil for an entry of its own.
        package var cluster: TriageSummary.ContentCluster?
    }

    /// The family-wise significance level.
    package static let alpha = 0.01
    /// The fewest traces of a group with the tag for it to be listed.
    package static let minimumTagged = 5

    /// The differences listed, in rank order: by kind, then most traces added first (ties: smaller p,
    /// then product, dimension, group and tag).
    package private(set) var entries: [Entry] = []
    /// The tests made (the Bonferroni divisor).
    package private(set) var tests = 0
    /// The p-value a test had to be below: `alpha / tests`.
    package var threshold: Double { tests == 0 ? Self.alpha : Self.alpha / Double(tests) }

    /// The regressions, old-version problems and clusters of a summary.
    package init(_ s: TriageSummary) {
        var candidates: [Entry] = []
        for (product, counts) in s.products {
            let versions = counts.bySDK.keys.filter { $0 != TriageSummary.unknownVersion && $0 != TriageSummary.otherVersions }.sorted()
            for dimension in Dimension.allCases {
                let table = counts.groups(dimension)
                let named = table.keys.filter { $0 != TriageSummary.unknownVersion && $0 != TriageSummary.otherVersions }.sorted()
                for group in named {
                    for (baseline, groups) in Self.baselines(of: group, dimension, in: named) {
                        let g = table[group]!
                        let base = groups.isEmpty ? Self.rest(of: g, in: counts) : Self.combined(groups, in: table)
                        guard g.traces > 0, base.traces > 0 else { continue }
                        let tags = Set(g.tagCounts.filter { $0.value > 0 }.keys).union(base.tagCounts.filter { $0.value > 0 }.keys)
                        for tag in tags where !tag.describesInput && !dimension.implies(tag) {
                            let test = TwoProportionTest(tagged: g.tagCounts[tag] ?? 0, traces: g.traces,
                                                         baselineTagged: base.tagCounts[tag] ?? 0, baselineTraces: base.traces)
                            tests += 1
                            guard test.rate > test.baselineRate, test.tagged >= Self.minimumTagged else { continue }
                            let largest = g.largestCluster(tag)
                            candidates.append(Entry(product: product, dimension: dimension, group: group, tag: tag, baseline: baseline, test: test,
                                                    baselineGroups: groups, productGroups: named, productVersions: versions,
                                                    cluster: largest.flatMap { $0.traces * 2 > test.tagged ? $0 : nil }))
                        }
                    }
                }
            }
        }
        let threshold = self.threshold
        entries = candidates.filter { $0.test.p < threshold }.sorted(by: Self.ranks)
    }

    /// Rank order: kind, then more traces added, then smaller p, then names.
    static func ranks(_ a: Entry, _ b: Entry) -> Bool {
        if a.kind != b.kind { return a.kind < b.kind }
        if a.added != b.added { return a.added > b.added }
        if a.test.p != b.test.p { return a.test.p < b.test.p }
        return (a.product.name, a.product.layer?.rawValue ?? "", a.dimension.rawValue, a.group, a.tag.rawValue)
            < (b.product.name, b.product.layer?.rawValue ?? "", b.dimension.rawValue, b.group, b.tag.rawValue)
    }

    /// The comparisons a group takes part in: an SDK or OS version with the previous version of its family,
    /// and the oldest (of two or more) with the later ones; a device model with the rest of the product.
    package static func baselines(of group: String, _ dimension: Dimension, in groups: [String]) -> [(Baseline, [String])] {
        switch dimension {
        case .device:
            return groups.count > 1 ? [(.restOfProduct, [])] : []
        case .sdk, .os:
            let family = TriageVersion.family(of: group, in: groups)
            guard let at = family.firstIndex(of: group), family.count > 1 else { return [] }
            if at == 0 { return [(.laterVersions(Array(family.dropFirst())), Array(family.dropFirst()))] }
            return [(.previousVersion(family[at - 1]), [family[at - 1]])]
        }
    }

    /// The product's traces and tags but the group's (the groups of a dimension divide the product).
    static func rest(of g: TriageSummary.Group, in product: TriageSummary.ProductCounts) -> TriageSummary.Group {
        var out = TriageSummary.Group()
        out.traces = product.traces - g.traces
        for (t, n) in product.tagCounts { out.tagCounts[t] = n - (g.tagCounts[t] ?? 0) }
        return out
    }

    /// The groups' traces and tags added up.
    static func combined(_ groups: some Sequence<String>, in table: [String: TriageSummary.Group]) -> TriageSummary.Group {
        var out = TriageSummary.Group()
        for name in groups {
            guard let g = table[name] else { continue }
            out.traces += g.traces
            for (t, n) in g.tagCounts { out.tagCounts[t, default: 0] += n }
        }
        return out
    }

    /// The entries, one line per entry except where one content cluster drives several entries of one
    /// group: those share a line, placed where the first of them ranks.
    package var lines: [Line] {
        var out: [Line] = []
        var at: [String: Int] = [:]
        for e in entries {
            guard let c = e.cluster?.cluster else {
                out.append(Line(entries: [e], cluster: nil))
                continue
            }
            let key = "\(e.product)\u{0}\(e.product.layer?.rawValue ?? "")\u{0}\(e.dimension.rawValue)\u{0}\(e.group)\u{0}\(e.kind.rawValue)\u{0}\(c.bundleId ?? "")\u{0}\(c.problem)"
            if let i = at[key] {
                out[i].entries.append(e)
            } else {
                at[key] = out.count
                out.append(Line(entries: [e], cluster: c))
            }
        }
        return out
    }

    /// The entries for one group, in order.
    package func entries(for dimension: Dimension, _ group: String) -> [Entry] {
        entries.filter { $0.dimension == dimension && $0.group == group }
    }

    /// The highest version below `group` of the same product among `groups`: `PRODUCT VERSION`, the
    /// product everything before the last space, versions compared by their numeric parts.
    package static func previous(of group: String, in groups: some Collection<String>) -> String? {
        let family = TriageVersion.family(of: group, in: groups)
        guard let at = family.firstIndex(of: group), at > 0 else { return nil }
        return family[at - 1]
    }
}
