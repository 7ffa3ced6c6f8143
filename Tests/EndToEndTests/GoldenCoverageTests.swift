import Foundation
import TraceFormat
import XCTest

/// Every rule id and finding code of the contract is pinned by at least one golden trace.
final class GoldenCoverageTests: XCTestCase {
    static let contractPath = CLI.root + "/../shared/spec/contract.md"

    /// Rule ids (R1…, I1…, Q1…, S1…, L1…, V1, X1…) and finding codes named by the contract.
    func contractIDs() throws -> (rules: Set<String>, codes: Set<String>) {
        guard let text = try? String(contentsOfFile: Self.contractPath, encoding: .utf8) else {
            XCTFail("cannot read \(Self.contractPath): the contract must sit beside the project in ../shared")
            return ([], [])
        }
        let ruleRegex = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9])([RIQSLX][0-9]{1,2}|V1)(?![A-Za-z0-9])"#)
        var rules = Set<String>()
        for m in ruleRegex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            rules.insert(String(text[Range(m.range(at: 1), in: text)!]))
        }
        var codes = Set<String>()
        let findings = text.components(separatedBy: "## Findings").last ?? ""
        let codeRegex = try NSRegularExpression(pattern: #"^\| `([a-zA-Z]+\.[a-zA-Z]+)` \|"#, options: [.anchorsMatchLines])
        for m in codeRegex.matches(in: findings, range: NSRange(findings.startIndex..., in: findings)) {
            codes.insert(String(findings[Range(m.range(at: 1), in: findings)!]))
        }
        return (rules, codes)
    }

    /// Rules and finding codes the golden traces' `expect.*` records pin.
    func pinned() throws -> (rules: Set<String>, codes: Set<String>, traces: Int) {
        var rules = Set<String>(), codes = Set<String>(), traces = 0
        let dir = CLI.root + "/traces"
        for case let f as String in FileManager.default.enumerator(atPath: dir)! where f.hasSuffix(".jsonl") || f.hasSuffix(".zst") {
            traces += 1
            let reader = try TraceReader(path: dir + "/" + f)
            while let e = reader.next() {
                guard case .record(let r) = e, case .expect(let x) = r.body else { continue }
                if let rule = x.rule { rules.insert(rule) }
                if case .finding(let code, _) = x.kind { codes.insert(code) }
            }
        }
        return (rules, codes, traces)
    }

    func test_everyContractRuleAndFindingCodeIsPinnedByAGoldenTrace() throws {
        let contract = try contractIDs()
        XCTAssertGreaterThanOrEqual(contract.rules.count, 29, "parsed rules: \(contract.rules.sorted())")
        XCTAssertGreaterThanOrEqual(contract.codes.count, 20, "parsed codes: \(contract.codes.sorted())")
        let golden = try pinned()
        XCTAssertGreaterThanOrEqual(golden.traces, 40)
        XCTAssertEqual(contract.rules.subtracting(golden.rules).sorted(), [], "rule ids no golden trace pins")
        XCTAssertEqual(contract.codes.subtracting(golden.codes).sorted(), [], "finding codes no golden trace expects")
    }
}
