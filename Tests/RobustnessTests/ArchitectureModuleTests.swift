import Foundation
import TestSupport
import XCTest

/// What docs/architecture.md says about modules, held to Package.swift and the sources: its module table
/// lists exactly the package's modules, each below everything it depends on (every arrow points one way),
/// each module imports only what it declares, and a row's "depends on … only" is the declared list.
final class ArchitectureModuleTests: XCTestCase {
    func text(_ path: String) throws -> String {
        try String(contentsOfFile: Support.root + "/" + path, encoding: .utf8)
    }

    /// The backticked names of `text`.
    static func names(in text: some StringProtocol) -> [String] {
        let text = String(text)
        let regex = try! NSRegularExpression(pattern: #"`(\w+)`"#)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    /// The module table's rows in order: the modules each row names in its first column, and the row.
    func tableRows() throws -> [(modules: [String], row: String)] {
        let doc = try text("docs/architecture.md")
        let start = try XCTUnwrap(doc.range(of: "## Modules"))
        let section = doc[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        return section[..<end].split(separator: "\n")
            .filter { $0.hasPrefix("| `") }
            .map { row in
                let first = row.dropFirst(2).prefix { $0 != "|" }
                return (Self.names(in: first), String(row))
            }
    }

    /// The package's source targets (not tests, not the test support) and what each depends on, read from
    /// Package.swift's `.target`, `.systemLibrary` and `.executableTarget` declarations.
    static func targets(of manifest: String) -> [String: Set<String>] {
        var targets: [String: Set<String>] = [:]
        let declaration = try! NSRegularExpression(
            pattern: #"^\s*\.(target|systemLibrary|executableTarget)\(\s*name:\s*"(\w+)""#, options: .anchorsMatchLines)
        let matches = declaration.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest))
        for (index, match) in matches.enumerated() {
            let name = String(manifest[Range(match.range(at: 2), in: manifest)!])
            let from = Range(match.range, in: manifest)!.upperBound
            let to = index + 1 < matches.count ? Range(matches[index + 1].range, in: manifest)!.lowerBound : manifest.endIndex
            let body = manifest[from..<to]
            if body.contains("path: \"Tests/") { continue }
            var dependencies: Set<String> = []
            if let open = body.range(of: "dependencies: [") {
                var depth = 1
                var cursor = open.upperBound
                while cursor < body.endIndex, depth > 0 {
                    if body[cursor] == "[" { depth += 1 }
                    if body[cursor] == "]" { depth -= 1 }
                    cursor = body.index(after: cursor)
                }
                let list = String(body[open.upperBound..<cursor])
                let quoted = try! NSRegularExpression(pattern: #"(?:^|[\[,(]\s*|name:\s*)"(\w+)""#)
                for item in quoted.matches(in: list, range: NSRange(list.startIndex..., in: list)) {
                    dependencies.insert(String(list[Range(item.range(at: 1), in: list)!]))
                }
            }
            targets[name] = dependencies
        }
        return targets
    }

    func test_theModuleTableListsExactlyThePackagesModules() throws {
        let targets = Self.targets(of: try text("Package.swift"))
        XCTAssertGreaterThanOrEqual(targets.count, 15, "the scan found the package's targets")
        let listed = try tableRows().flatMap(\.modules)
        XCTAssertEqual(listed.count, Set(listed).count, "each module is listed once")
        XCTAssertEqual(Set(listed), Set(targets.keys))
        let folders = try FileManager.default.contentsOfDirectory(atPath: Support.root + "/Sources")
        XCTAssertEqual(Set(folders.filter { !$0.hasPrefix(".") }), Set(targets.keys))
    }

    /// Every module's row comes after the rows of all it depends on: the table reads upstream first.
    func test_everyModuleIsListedBelowWhatItDependsOn() throws {
        let targets = Self.targets(of: try text("Package.swift"))
        var above: Set<String> = []
        var upward: [String] = []
        for (modules, _) in try tableRows() {
            for module in modules {
                for dependency in (targets[module] ?? []).sorted() where !above.contains(dependency) {
                    upward.append("\(module) → \(dependency)")
                }
            }
            above.formUnion(modules)
        }
        XCTAssertEqual(upward, [])
    }

    /// A module imports only the package's modules it declares, so the declared graph is the real one.
    func test_eachModuleImportsOnlyWhatItDeclares() throws {
        let targets = Self.targets(of: try text("Package.swift"))
        let importLine = try NSRegularExpression(pattern: #"^[ \t]*(?:@[\w()]+[ \t]+)*(?:package[ \t]+|public[ \t]+)?import[ \t]+(?:(?:struct|class|enum|protocol|func|var|typealias)[ \t]+)?(\w+)"#, options: .anchorsMatchLines)
        var undeclared: Set<String> = []
        var scanned = 0
        for (module, dependencies) in targets {
            let folder = Support.root + "/Sources/" + module
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                scanned += 1
                for match in importLine.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                    let imported = String(source[Range(match.range(at: 1), in: source)!])
                    if targets[imported] != nil, imported != module, !dependencies.contains(imported) {
                        undeclared.insert("\(module)/\(file) imports \(imported)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(scanned, 100, "the scan read the sources")
        XCTAssertEqual(undeclared.sorted(), [])
    }

    /// A row that says its module "depends on … only" names exactly the module's declared dependencies.
    func test_aRowsDependsOnlyIsTheDeclaredList() throws {
        let targets = Self.targets(of: try text("Package.swift"))
        let claim = try NSRegularExpression(pattern: #"[Dd]epends on ((?:`\w+`(?:, | and )?)+) only"#)
        var checked: [String] = []
        for (modules, row) in try tableRows() {
            for match in claim.matches(in: row, range: NSRange(row.startIndex..., in: row)) {
                let said = Set(Self.names(in: row[Range(match.range(at: 1), in: row)!]))
                for module in modules {
                    XCTAssertEqual(said, targets[module], "\(module)'s row")
                    checked.append(module)
                }
            }
        }
        XCTAssertTrue(Set(["CommandLineKit", "TraceRecorder", "LogImport"]).isSubset(of: Set(checked)),
                      "the rows of the kit, the recorder and the log import say what they depend on")
    }

    /// The manifest scan itself: a nested condition and a two-line list are read whole.
    func test_theManifestScanReadsNestedAndWrappedLists() {
        let manifest = """
            .target(name: "A", dependencies: [.target(name: "Z", condition: .when(platforms: [.linux]))]),
            .target(name: "B", dependencies: ["A",
                                              "C"], swiftSettings: x),
            .target(name: "T", dependencies: ["A"], path: "Tests/T"),
            """
        let targets = Self.targets(of: manifest)
        XCTAssertEqual(targets["A"], ["Z"])
        XCTAssertEqual(targets["B"], ["A", "C"])
        XCTAssertNil(targets["T"])
    }
}
