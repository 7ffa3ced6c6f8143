import Foundation
import TestSupport
import TraceModel
import XCTest

/// docs/contract.md and the catalogue in code (RuleID, FindingCode) name the same rules and codes.
final class ContractDocTests: XCTestCase {
    static let path = Fixtures.root + "/docs/contract.md"

    func contract() throws -> String {
        try String(contentsOfFile: Self.path, encoding: .utf8)
    }

    /// Every whole word shaped like a rule id (a letter of R, I, V, X, Q, S, L, T, E and one or two digits;
    /// since v4 also RS1 and E1).
    func ruleIDs(in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: #"\b(?:[RIVXQSLTE][0-9]{1,2}|RS1)\b"#)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
    }

    /// The rows of the findings tables: (code, severity cell), in order.
    func findingRows(in text: String) throws -> [(code: String, severity: String)] {
        let row = try NSRegularExpression(pattern: #"^\| `([A-Za-z]+\.[A-Za-z]+)` \| ([^|]*) \|"#)
        var rows: [(String, String)] = []
        var inFindings = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") { inFindings = line.lowercased().contains("finding") }
            guard inFindings, let m = row.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            rows.append((String(line[Range(m.range(at: 1), in: line)!]), String(line[Range(m.range(at: 2), in: line)!])))
        }
        return rows
    }

    func test_contractNamesEveryCatalogueRuleAndNoOther() throws {
        let named = Set(try ruleIDs(in: try contract()))
        let catalogue = Set(RuleID.allCases.map(\.rawValue))
        XCTAssertEqual(catalogue.subtracting(named).sorted(), [], "catalogue rules docs/contract.md does not name")
        XCTAssertEqual(named.subtracting(catalogue).sorted(), [], "rule ids in docs/contract.md that the catalogue lacks")
    }

    func test_findingsTablesListEveryCatalogueCodeOnceWithItsSeverity() throws {
        let rows = try findingRows(in: try contract())
        let listed = rows.map(\.code)
        XCTAssertEqual(Set(listed), Set(FindingCode.allCases.map(\.rawValue)), "codes in the findings tables vs the catalogue")
        XCTAssertEqual(listed.count, Set(listed).count, "a code is listed twice: \(listed)")
        for (code, severity) in rows {
            guard let c = FindingCode(rawValue: code) else { continue }
            XCTAssertTrue(severity.contains(c.severity.rawValue), "\(code): the table says '\(severity)', the catalogue \(c.severity)")
        }
    }

    /// A finding code mentioned anywhere in the text (in backticks) is one of the catalogue's:
    /// no stale or misspelt code. Record types (`api.setRoute`, `trace.header`, `trace.checkpoint`) are not codes.
    func test_everyCodeTheContractMentionsIsInTheCatalogue() throws {
        let text = try contract()
        let families = Set(FindingCode.allCases.map(\.family.rawValue))
        let regex = try NSRegularExpression(pattern: #"`([A-Za-z]+)\.([A-Za-z]+)`"#)
        var unknown: Set<String> = []
        for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let family = String(text[Range(m.range(at: 1), in: text)!])
            let name = family + "." + text[Range(m.range(at: 2), in: text)!]
            guard families.contains(family), RecordKind(rawValue: name) == nil else { continue }
            if FindingCode(rawValue: name) == nil { unknown.insert(name) }
        }
        XCTAssertEqual(unknown.sorted(), [])
    }

    /// The parsers above find what they should, and nothing shaped like an id hides in prose.
    func test_parsersReadWholeWordsOnly() throws {
        XCTAssertEqual(try ruleIDs(in: "R4, (X2), T1 and V1; not QA1754, R2D2, L10n or x1"), ["R4", "X2", "T1", "V1"])
        let rows = try findingRows(in: "## Verdicts\n| `a.b` | x |\n## Findings\n| code | severity |\n| `route.divergence` | error |\n")
        XCTAssertEqual(rows.map(\.code), ["route.divergence"])
    }
}
