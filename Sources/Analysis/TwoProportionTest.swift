/// Whether the share of traces with a tag in one group differs from its share in another by more than
/// chance: the two-proportion z-test with the pooled proportion when every expected cell of the 2×2
/// table holds at least five traces (the usual condition for the normal approximation), and Fisher's
/// exact test otherwise (small groups, rare tags), where the approximation is poor. Both are two-sided.
///
/// Plain Swift, no math library: the normal tail uses an erfc approximation with a relative error below
/// 1.2e-7 (Numerical Recipes' `erfcc`), on an `exp` of its own; Fisher's test sums hypergeometric
/// probabilities by their ratios from the mode, so nothing overflows.
package struct TwoProportionTest: Sendable, Equatable {
    /// Which test was used.
    package enum Method: String, Sendable {
        /// The pooled two-proportion z-test.
        case z
        /// Fisher's exact test.
        case fisher
    }

    /// Traces with the tag in the group, and the group's traces.
    package var tagged: Int, traces: Int
    /// Traces with the tag in the baseline, and the baseline's traces.
    package var baselineTagged: Int, baselineTraces: Int
    /// The test used.
    package var method: Method
    /// The z statistic (group minus baseline, over the pooled standard error); 0 for Fisher's test.
    package var z: Double
    /// The two-sided p-value.
    package var p: Double

    /// The smallest expected cell count for which the z-test is used.
    package static let minimumExpected = 5.0

    /// Tests `tagged` of `traces` against `baselineTagged` of `baselineTraces`.
    package init(tagged: Int, traces: Int, baselineTagged: Int, baselineTraces: Int) {
        self.tagged = tagged
        self.traces = traces
        self.baselineTagged = baselineTagged
        self.baselineTraces = baselineTraces
        let n1 = Double(traces), n2 = Double(baselineTraces), k = Double(tagged + baselineTagged), n = n1 + n2
        guard traces > 0, baselineTraces > 0, k > 0, k < n else {
            method = .fisher
            z = 0
            p = 1
            return
        }
        let expected = [n1 * k / n, n1 * (n - k) / n, n2 * k / n, n2 * (n - k) / n]
        if expected.allSatisfy({ $0 >= Self.minimumExpected }) {
            let pooled = k / n
            let se = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
            method = .z
            z = (Double(tagged) / n1 - Double(baselineTagged) / n2) / se
            p = min(1, Self.erfc(abs(z) / 2.0.squareRoot()))
        } else {
            method = .fisher
            z = 0
            p = Self.fisherTwoSided(a: tagged, n1: traces, k: tagged + baselineTagged, n: traces + baselineTraces)
        }
    }

    /// The group's share.
    package var rate: Double { traces == 0 ? 0 : Double(tagged) / Double(traces) }
    /// The baseline's share.
    package var baselineRate: Double { baselineTraces == 0 ? 0 : Double(baselineTagged) / Double(baselineTraces) }

    /// Fisher's exact test, two-sided: the probability, with the margins fixed, of a table at most as
    /// likely as the one seen (`a` tagged among `n1` of `n` traces, `k` tagged in all).
    package static func fisherTwoSided(a: Int, n1: Int, k: Int, n: Int) -> Double {
        let n2 = n - n1
        let lo = max(0, k - n2), hi = min(k, n1)
        guard hi > lo else { return 1 }
        // Weights relative to the mode (the most likely table), by the ratio of neighbouring probabilities.
        let mode = min(hi, max(lo, Int((Double(n1 + 1) * Double(k + 1)) / Double(n + 2))))
        var w = [Double](repeating: 0, count: hi - lo + 1)
        w[mode - lo] = 1
        var x = mode
        while x < hi {
            w[x + 1 - lo] = w[x - lo] * Double(k - x) * Double(n1 - x) / (Double(x + 1) * Double(n2 - k + x + 1))
            x += 1
        }
        x = mode
        while x > lo {
            w[x - 1 - lo] = w[x - lo] * Double(x) * Double(n2 - k + x) / (Double(k - x + 1) * Double(n1 - x + 1))
            x -= 1
        }
        let total = w.reduce(0, +)
        let seen = w[a - lo] * (1 + 1e-7)
        let tail = w.filter { $0 <= seen }.reduce(0, +)
        return min(1, tail / total)
    }

    /// The complementary error function, relative error below 1.2e-7 (Numerical Recipes, `erfcc`).
    package static func erfc(_ x: Double) -> Double {
        let z = abs(x)
        let t = 1 / (1 + 0.5 * z)
        var poly = 0.17087277
        for c in [-0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223] {
            poly = c + t * poly
        }
        let r = t * exp(-z * z + poly)
        return x >= 0 ? r : 2 - r
    }

    /// e^x, to within a few ulps: x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its series, times 2^k.
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.7 { return .infinity }
        if x < -745.2 { return 0 }
        let ln2 = 0.693_147_180_559_945_309_4
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0, sum = 1.0
        for i in 1...24 {
            term *= r / Double(i)
            sum += term
            if abs(term) < 1e-17 * sum { break }
        }
        // 2^k in two steps, so that a subnormal result is reached without an out-of-range exponent.
        let k1 = Int(k) / 2, k2 = Int(k) - Int(k) / 2
        return sum * Double(sign: .plus, exponent: k1, significand: 1) * Double(sign: .plus, exponent: k2, significand: 1)
    }
}
