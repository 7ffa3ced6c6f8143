import TraceFixtures
import TraceModel
import XCTest

/// A phrase gives the text the same interpolation gives as a `String`: literals (any UTF-8), strings,
/// integers of every size and sign, optional ones, durations, chosen literals, phrases within phrases and joined.
final class PhraseTests: XCTestCase {
    func test_aPhraseIsTheTextTheSameStringInterpolationGives() {
        var g = SplitMix64(seed: 31)
        var ints: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min]
        for _ in 0..<2_000 { ints.append(Int(bitPattern: UInt(g.next())) >> Int(g.below(63))) }
        let words = ["", "a", "AirPods \"Pro\"", "é → ü", "\u{0}\n", String(repeating: "long ", count: 40)]
        for (i, n) in ints.enumerated() {
            let w = words[i % words.count], t = Int64(n) / 3
            let inner: Phrase = "of \(n)"
            let phrase: Phrase = "seq \(n) at \(t) → \(w) (\(inner)); " + "then \(w)\(n)."
            XCTAssertEqual(phrase.string, "seq \(n) at \(t) → \(w) (of \(n)); then \(w)\(n).")
        }
        for (i, n) in ints.enumerated() {
            let t = Int64(n) / 7, some: Int? = i % 3 == 0 ? nil : n
            let word: StaticString = i % 2 == 0 ? "é → ü" : ""
            let phrase: Phrase = "at \(duration: t) \(word)\(ifAny: some)."
            XCTAssertEqual(phrase.string, "at \(formatDuration(t)) \(i % 2 == 0 ? "é → ü" : "")\(some.map { "\($0)" } ?? "").")
        }
        let plain: Phrase = "no values at all, ünïcödé"
        XCTAssertEqual(plain.string, "no values at all, ünïcödé")
        XCTAssertEqual((plain + "").string, plain.string)
    }
}
