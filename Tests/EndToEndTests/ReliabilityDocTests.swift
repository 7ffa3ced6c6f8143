import CommandLineKit
import Foundation
import TestSupport
import XCTest

/// docs/reliability.md lists each guarantee with the test that holds it, and says the exit statuses the
/// one table (`ExitCode`) gives: a test it names exists, and an exit status it states is in the table
/// (or is 128 + a signal's number, as a signal ends a command).
final class ReliabilityDocTests: XCTestCase {
    static var doc: String { (try? String(contentsOfFile: CLI.root + "/docs/reliability.md", encoding: .utf8)) ?? "" }

    func test_everyTestTheDocNamesExists() throws {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: CLI.root + "/Tests"))
        var sources = ""
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            sources += try String(contentsOfFile: CLI.root + "/Tests/" + path, encoding: .utf8)
        }
        let names = Set(Self.doc.matches(of: /test_[A-Za-z0-9_]+/).map { String($0.output) })
        XCTAssertGreaterThan(names.count, 100)
        for name in names.sorted() { XCTAssertTrue(sources.contains("func \(name)("), "docs/reliability.md names \(name), which no test defines") }
    }

    func test_everyExitStatusTheDocStatesIsTheTables() {
        let table = Set(ExitCode.allCases.map(\.rawValue))
        let stated = Self.doc.matches(of: /exit(?:s| with)? (\d+)/).compactMap { Int32($0.output.1) }
        XCTAssertFalse(stated.isEmpty)
        for code in stated { XCTAssertTrue(table.contains(code) || (129...159).contains(code), "docs/reliability.md states exit \(code)") }
        // An output refused because another writer is appending to it is an I/O failure, 74 (it said 1).
        XCTAssertTrue(Self.doc.contains("refusing to replace it`, exit 74"))
        XCTAssertFalse(Self.doc.contains("refusing to replace it`, exit 1"))
    }
}
