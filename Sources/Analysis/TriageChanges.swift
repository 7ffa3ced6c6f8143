import Contract
import TraceModel

/// What changed since a baseline period (the rows of an earlier week, say), product by product: the tags
/// and problem signatures whose share of the readable traces rose or fell by more than chance (the test
/// and guard of `TriageRegressions`, Bonferroni over every comparison made here), the finding codes that
/// appeared or disappeared, and the escalations (traces with an unexplained divergence) each SDK version
/// added beyond the baseline's rate.
package struct TriageChanges: Sendable {
    /// What changed: a tag, or a problem signature.
    package enum Subject: Sendable, Hashable {
        /// A tag's share of the product's readable traces.
        case tag(TriageTag)
        /// A problem signature's share.
        case signature(TriageSummary.Signature)

        /// `interruption-not-recovered`, or the signature's key.
        package var name: String {
            switch self {
            case .tag(let t): t.rawValue
            case .signature(let s): s.key
            }
        }
    }

    /// A share that rose or fell within a product.
    package struct Change: Sendable, Equatable {
        /// The product.
        package var product: TriageProduct
        /// The tag or signature.
        package var subject: Subject
        /// The counts now (the group) against the baseline's, the test and its p-value.
        package var test: TwoProportionTest
        /// Traces now beyond (or, negative, short of) what the baseline's share predicts.
        package var added: Double { Double(test.tagged) - Double(test.traces) * test.baselineRate }
    }

    /// A finding code present in one period and not in the other.
    package struct Code: Sendable, Equatable {
        /// The code.
        package var code: FindingCode
        /// Readable traces with it now.
        package var traces: Int
        /// Readable traces with it in the baseline.
        package var baselineTraces: Int
    }

    /// The escalations of one SDK version against the baseline.
    package struct Escalation: Sendable, Equatable {
        /// The product.
        package var product: TriageProduct
        /// The SDK version.
        package var sdk: String
        /// Escalations of the version's traces now against the baseline's (the same version, else the
        /// product's: a version new since the baseline is compared with its product as it was).
        package var test: TwoProportionTest
        /// Whether the baseline had traces of this version (else the product's were used).
        package var versionInBaseline: Bool
        /// Escalations beyond what the baseline's share predicts.
        package var added: Double { Double(test.tagged) - Double(test.traces) * test.baselineRate }
    }

    /// Traces the baseline counted (duplicates once), and how many of them were readable.
    package let baselineTraces: Int, baselineReadable: Int
    /// Shares that rose by more than chance, most traces added first.
    package private(set) var rose: [Change] = []
    /// Shares that fell by more than chance, most traces lost first.
    package private(set) var fell: [Change] = []
    /// Codes with traces now and none in the baseline, most traces first.
    package private(set) var newCodes: [Code] = []
    /// Codes with traces in the baseline and none now, most baseline traces first.
    package private(set) var goneCodes: [Code] = []
    /// SDK versions with more escalations than the baseline's share predicts, most added first.
    package private(set) var escalations: [Escalation] = []
    /// The tests made (the Bonferroni divisor).
    package private(set) var tests = 0
    /// The p-value a test had to be below.
    package var threshold: Double { tests == 0 ? TriageRegressions.alpha : TriageRegressions.alpha / Double(tests) }

    /// Compares `current` with `baseline`.
    package init(_ current: TriageSummary, since baseline: TriageSummary) {
        baselineTraces = baseline.traces
        baselineReadable = baseline.readable
        var changes: [Change] = []
        let products = Set(current.products.keys).union(baseline.products.keys)
        for product in products {
            let now = current.products[product] ?? TriageSummary.ProductCounts()
            let then = baseline.products[product] ?? TriageSummary.ProductCounts()
            var subjects: [Subject: (Int, Int)] = [:]
            for (t, n) in now.tagCounts where n > 0 && !t.describesInput { subjects[.tag(t), default: (0, 0)].0 = n }
            for (t, n) in then.tagCounts where n > 0 && !t.describesInput { subjects[.tag(t), default: (0, 0)].1 = n }
            for (s, n) in now.signatures where n > 0 { subjects[.signature(s), default: (0, 0)].0 = n }
            for (s, n) in then.signatures where n > 0 { subjects[.signature(s), default: (0, 0)].1 = n }
            for (subject, (k, bk)) in subjects {
                tests += 1
                changes.append(Change(product: product, subject: subject,
                                      test: TwoProportionTest(tagged: k, traces: now.traces, baselineTagged: bk, baselineTraces: then.traces)))
            }
        }
        var versions: [Escalation] = []
        for (product, now) in current.products {
            let then = baseline.products[product]
            for (sdk, g) in now.bySDK where sdk != TriageSummary.unknownVersion && sdk != TriageSummary.otherVersions {
                let k = g.tagCounts[.unexplainedDivergence] ?? 0
                guard k > 0 else { continue }
                let same = then?.bySDK[sdk].flatMap { $0.traces > 0 ? $0 : nil }
                let base = same.map { ($0.traces, $0.tagCounts[.unexplainedDivergence] ?? 0) }
                    ?? then.map { ($0.traces, $0.tagCounts[.unexplainedDivergence] ?? 0) } ?? (0, 0)
                tests += 1
                versions.append(Escalation(product: product, sdk: sdk,
                                           test: TwoProportionTest(tagged: k, traces: g.traces, baselineTagged: base.1, baselineTraces: base.0),
                                           versionInBaseline: same != nil))
            }
        }
        let threshold = self.threshold
        rose = changes.filter { $0.test.p < threshold && $0.test.rate > $0.test.baselineRate && $0.test.tagged >= TriageRegressions.minimumTagged }
            .sorted { Self.order($0, $1, by: $0.added > $1.added) }
        fell = changes.filter { $0.test.p < threshold && $0.test.rate < $0.test.baselineRate && $0.test.baselineTagged >= TriageRegressions.minimumTagged }
            .sorted { Self.order($0, $1, by: $0.added < $1.added) }
        escalations = versions.filter { $0.added >= 0.5 }.sorted {
            $0.added != $1.added ? $0.added > $1.added : ($0.product, $0.sdk) < ($1.product, $1.sdk)
        }
        for code in FindingCode.allCases {
            let n = current.findingTraces[code] ?? 0, b = baseline.findingTraces[code] ?? 0
            if n > 0 && b == 0 { newCodes.append(Code(code: code, traces: n, baselineTraces: 0)) }
            if b > 0 && n == 0 { goneCodes.append(Code(code: code, traces: 0, baselineTraces: b)) }
        }
        newCodes.sort { $0.traces != $1.traces ? $0.traces > $1.traces : $0.code < $1.code }
        goneCodes.sort { $0.baselineTraces != $1.baselineTraces ? $0.baselineTraces > $1.baselineTraces : $0.code < $1.code }
    }

    /// `first` when the two differ in the ranked quantity; else by product, tags before signatures, name.
    private static func order(_ a: Change, _ b: Change, by first: @autoclosure () -> Bool) -> Bool {
        if a.added != b.added { return first() }
        if a.product != b.product { return a.product < b.product }
        switch (a.subject, b.subject) {
        case (.tag, .signature): return true
        case (.signature, .tag): return false
        default: return a.subject.name < b.subject.name
        }
    }

    /// Whether anything changed.
    package var isEmpty: Bool { rose.isEmpty && fell.isEmpty && newCodes.isEmpty && goneCodes.isEmpty && escalations.isEmpty }
}
