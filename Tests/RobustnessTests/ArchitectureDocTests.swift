import Foundation
import TestSupport
import TraceModel
import XCTest

/// What docs/architecture.md says about files, held to the tree: the recipes name files that exist, the
/// route engine's files are the concepts the document lists, and files are named by topic, never by
/// contract version.
final class ArchitectureDocTests: XCTestCase {
    func text(_ path: String) throws -> String {
        try String(contentsOfFile: Support.root + "/" + path, encoding: .utf8)
    }

    /// The names of the files under `folder` (relative to the package), recursively.
    func files(under folder: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: Support.root + "/" + folder)
        return (walker?.compactMap { $0 as? String } ?? []).map { folder + "/" + $0 }
    }

    /// The backticked `.swift` names in `text`.
    static func swiftNames(in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"`([^`\s]+\.swift)`"#)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    /// The recipes ("Where to add things") name only files that exist: a path as given, a bare name
    /// somewhere under Sources/ or Tests/, and the route engine's findings file of a family as the
    /// pattern the recipe gives.
    func test_theRecipesNameFilesThatExist() throws {
        let doc = try text("docs/architecture.md")
        let start = try XCTUnwrap(doc.range(of: "## Where to add things"))
        let recipes = String(doc[start.upperBound...])
        let names = Self.swiftNames(in: recipes)
        XCTAssertGreaterThanOrEqual(names.count, 15, "the scan found the recipes' files")
        let all = files(under: "Sources") + files(under: "Tests")
        let pattern = "Sources/RouteEngine/RouteEngine+<Family>Findings.swift"
        XCTAssertTrue(names.contains(pattern), "the finding-code recipe names the findings file of the code's family")
        let words = "Sources/Contract/Words/FindingWords+<Family>.swift"
        XCTAssertTrue(names.contains(words), "the finding-code recipe names the words file of the code's family")
        XCTAssertTrue(all.contains { $0.hasPrefix("Sources/Contract/Words/FindingWords+") }, "the words files of the families exist")
        var missing: [String] = []
        for name in names where name != pattern && name != words {
            let exists = name.contains("/")
                ? FileManager.default.fileExists(atPath: Support.root + "/" + name)
                : all.contains { $0.hasSuffix("/" + name) }
            if !exists { missing.append(name) }
        }
        XCTAssertEqual(missing, [])
    }

    /// Each findings file of the route engine holds the codes of its family only, and no other file of the
    /// engine builds a finding: the recipe's `RouteEngine+<Family>Findings.swift` is where a code is phrased.
    func test_theRouteEnginesFindingsAreFiledByFamily() throws {
        let regex = try NSRegularExpression(pattern: #"Finding\(\s*code:\s*\.(\w+)"#)
        // The case name of each code: its family, then the rest with a capital (`session.wrongMode` → `sessionWrongMode`).
        let byCase = Dictionary(uniqueKeysWithValues: FindingCode.allCases.map { code -> (String, FindingCode) in
            let parts = code.rawValue.split(separator: ".", maxSplits: 1).map(String.init)
            return (parts[0] + parts[1].prefix(1).uppercased() + parts[1].dropFirst(), code)
        })
        var filed = 0
        var misfiled: [String] = []
        for path in files(under: "Sources/RouteEngine").filter({ $0.hasSuffix(".swift") }).sorted() {
            let file = String(path.split(separator: "/").last!)
            let source = try text(path)
            let codes = regex.matches(in: source, range: NSRange(source.startIndex..., in: source)).map {
                String(source[Range($0.range(at: 1), in: source)!])
            }
            let family = file.hasPrefix("RouteEngine+") && file.hasSuffix("Findings.swift")
                ? String(file.dropFirst("RouteEngine+".count).dropLast("Findings.swift".count)) : nil
            for name in codes {
                guard let code = byCase[name] else {
                    misfiled.append("\(file): .\(name) is no finding code")
                    continue
                }
                if let family, code.family.rawValue.lowercased() == family.lowercased() {
                    filed += 1
                } else {
                    misfiled.append("\(file): \(code.rawValue)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(filed, 25, "the scan found the route engine's findings")
        XCTAssertEqual(misfiled, [])
    }

    /// Every `RouteEngine+Concept.swift` is a concept the document's module table lists for the engine.
    func test_theRouteEnginesFilesAreTheConceptsTheDocumentLists() throws {
        let doc = try text("docs/architecture.md")
        let row = String(try XCTUnwrap(doc.split(separator: "\n").first { $0.hasPrefix("| `RouteEngine`, `QualityEngine`") }))
        let listed = Set(try NSRegularExpression(pattern: #"`(\w+)`"#)
            .matches(in: row, range: NSRange(row.startIndex..., in: row))
            .map { String(row[Range($0.range(at: 1), in: row)!]) })
        var unlisted: [String] = []
        for path in files(under: "Sources/RouteEngine") {
            let file = String(path.split(separator: "/").last!)
            guard file.hasPrefix("RouteEngine+"), file.hasSuffix(".swift") else { continue }
            var concept = String(file.dropFirst("RouteEngine+".count).dropLast(".swift".count))
            if concept.hasSuffix("Findings"), concept != "Findings" { concept = String(concept.dropLast("Findings".count)) }
            if !listed.contains(concept) { unlisted.append(file) }
        }
        XCTAssertEqual(unlisted.sorted(), [])
    }

    /// Files are named by topic: no file under Sources/ is named for a contract version (`V3Findings`).
    func test_noSourceFileIsNamedForAContractVersion() {
        let regex = try! NSRegularExpression(pattern: #"(?:^|[^A-Za-z])?[Vv](?:ersion)?[0-9]"#)
        let named = files(under: "Sources").map { String($0.split(separator: "/").last!) }.filter {
            regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
        }
        XCTAssertGreaterThan(files(under: "Sources").count, 100)
        XCTAssertEqual(named, [])
        XCTAssertNotNil(regex.firstMatch(in: "RouteEngine+V3Findings.swift", range: NSRange(location: 0, length: 28)),
                        "the scan sees a version in a name")
    }
}
