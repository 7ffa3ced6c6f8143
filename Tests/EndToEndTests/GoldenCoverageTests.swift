import Foundation
import TestSupport
import TraceCodec
import TraceModel
import XCTest

/// Every rule id and finding code of the catalogue (RuleID, FindingCode; docs/contract.md names
/// the same ones) is pinned by at least one golden trace.
final class GoldenCoverageTests: XCTestCase {
    /// Rules and finding codes the golden traces' `expect.*` records pin.
    func pinned() throws -> (rules: Set<String>, codes: Set<String>, traces: Int) {
        var rules = Set<String>(), codes = Set<String>(), traces = 0
        for name in Fixtures.goldenTraceNames() {
            traces += 1
            let reader = try TraceReader(path: Fixtures.trace(name))
            while let e = reader.next() {
                guard case .record(let r) = e, case .expect(let x) = r.body else { continue }
                if let rule = x.rule { rules.insert(rule.rawValue) }
                if case .finding(let code, _) = x.kind { codes.insert(code.rawValue) }
            }
        }
        return (rules, codes, traces)
    }

    func test_everyContractRuleAndFindingCodeIsPinnedByAGoldenTrace() throws {
        let golden = try pinned()
        XCTAssertGreaterThanOrEqual(golden.traces, 40)
        let rules = RuleID.allCases.map(\.rawValue).filter { !golden.rules.contains($0) }
        let codes = FindingCode.allCases.map(\.rawValue).filter { !golden.codes.contains($0) }
        XCTAssertEqual(rules, [], "rule ids no golden trace pins")
        XCTAssertEqual(codes, [], "finding codes no golden trace expects")
    }

}

/// traces/README.md has one row per golden trace: the corpus is reviewed as checked-in files, so
/// its table is kept by hand and must not drift.
final class GoldenReadmeTests: XCTestCase {
    func test_everyGoldenTraceHasARowInTheReadme() throws {
        let readme = try String(contentsOfFile: Fixtures.trace("README.md"), encoding: .utf8)
        let rows = Set(readme.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        })
        let traces = Set(Fixtures.goldenTraceNames())
        XCTAssertEqual(traces.subtracting(rows).sorted(), [], "traces without a row in traces/README.md")
        XCTAssertEqual(rows.subtracting(traces).sorted(), [], "rows in traces/README.md without a trace")
    }
}
