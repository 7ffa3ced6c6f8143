import Foundation
import TestSupport
import TraceModel
import XCTest

/// `rtctrace rules`: the catalogue from code, one entry with its summary and example advice.
final class RulesCommandTests: XCTestCase {
    func test_rulesListsEveryRuleAndCode() {
        let r = CLI.runInProcess(["rules"])
        XCTAssertEqual(r.status, 0, r.err)
        for id in RuleID.allCases { XCTAssertTrue(r.out.contains("    \(id.rawValue) "), "missing \(id)") }
        for code in FindingCode.allCases { XCTAssertTrue(r.out.contains(code.rawValue), "missing \(code)") }
    }

    func test_rulesExplainsARule_withItsSummaryAndAdvice() {
        let r = CLI.runInProcess(["rules", "X3"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("X3: \(RuleID.X3.title)\n"), r.out)
        XCTAssertTrue(r.out.contains("unexplained"), r.out)
        XCTAssertTrue(r.out.contains("Example advice (route.divergence)"), r.out)
    }

    func test_rulesExplainsACode_caseInsensitively() {
        let r = CLI.runInProcess(["rules", "SESSION.missingAllowBluetooth"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("session.missingAllowBluetooth: "), r.out)
        XCTAssertTrue(r.out.contains("severity: warning"), r.out)
        XCTAssertTrue(r.out.contains(FindingCode.sessionMissingAllowBluetooth.exampleAdvice.prefix(30)), r.out)
    }

    func test_rulesJSONCarriesTheWholeCatalogue() throws {
        let r = CLI.runInProcess(["rules", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        XCTAssertEqual((obj["rules"] as? [Any])?.count, RuleID.allCases.count)
        XCTAssertEqual((obj["codes"] as? [Any])?.count, FindingCode.allCases.count)
    }

    func test_unknownEntryIsAUsageError() {
        let r = CLI.runInProcess(["rules", "R99"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.err.contains("'R99' is neither a rule id nor a finding code"), r.err)
    }
}
