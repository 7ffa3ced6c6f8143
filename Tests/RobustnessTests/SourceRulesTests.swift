import Foundation
import TestSupport
import XCTest

/// Rules of the code base that the compiler cannot hold by itself.
final class SourceRulesTests: XCTestCase {
    /// Every Swift file under Sources/ with its text.
    func sources() throws -> [(path: String, text: String)] {
        let root = Support.root + "/Sources"
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw CocoaError(.fileNoSuchFile) }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }
    }

    /// The switches over a record body or a record kind in `text`: (line, subject, has a `default:`).
    static func recordSwitches(in text: String) -> [(line: Int, subject: String, hasDefault: Bool)] {
        let bytes = Array(text.utf8)
        let regex = try! NSRegularExpression(pattern: #"\bswitch\s+([^{\n]+?)\s*\{"#)
        var out: [(Int, String, Bool)] = []
        for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let subject = String(text[Range(m.range(at: 1), in: text)!])
            let before = String(text[..<Range(m.range, in: text)!.lowerBound])
            // The type the switch is written in: the last extension or type declaration before it.
            let declarations = try! NSRegularExpression(pattern: #"\n(?:public )?(?:extension|enum|struct|final class) (\w+)"#)
            let enclosing = declarations.matches(in: before, range: NSRange(before.startIndex..., in: before)).last
                .map { String(before[Range($0.range(at: 1), in: before)!]) } ?? ""
            let overRecord = subject.range(of: #"(^|\.)body\??$|(^|\.)body\.kind$|^kind$"#, options: .regularExpression) != nil
                && (subject != "kind" || enclosing.hasPrefix("RecordKind") || enclosing.hasPrefix("RecordBody"))
            let overSelf = subject == "self" && (enclosing.hasPrefix("RecordBody") || enclosing.hasPrefix("RecordKind"))
            guard overRecord || overSelf else { continue }
            // The switch's braces, and a `default:` directly inside them.
            var i = Range(m.range, in: text)!.upperBound.utf16Offset(in: text)
            var depth = 1, hasDefault = false
            let def = Array("default:".utf8)
            while depth > 0, i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: "d") where depth == 1 && i + def.count <= bytes.count && Array(bytes[i..<i + def.count]) == def:
                    hasDefault = true
                default: break
                }
                i += 1
            }
            out.append((before.filter { $0 == "\n" }.count + 1, subject, hasDefault))
        }
        return out
    }

    /// A new record type must be a compile error wherever a switch decides something per type: no
    /// switch over a record body or a record kind ends in `default:`.
    func test_noSwitchOverRecordTypesHasADefault() throws {
        var seen = 0
        var offenders: [String] = []
        for (path, text) in try sources() {
            for s in Self.recordSwitches(in: text) {
                seen += 1
                if s.hasDefault { offenders.append("\(path):\(s.line): switch \(s.subject)") }
            }
        }
        XCTAssertGreaterThanOrEqual(seen, 8, "the scan found the record switches (the kind table, the codec, the engines)")
        XCTAssertEqual(offenders, [])
    }

    /// The Tools SPI (docs/architecture.md, "The Tools SPI") is what fuzz/ and benchmarks/ reach and nothing
    /// else: only the modules' `ToolsEntry.swift` files name it (one entry may take another's values), every
    /// public declaration in them carries it, and each of its types is listed in docs/architecture.md.
    func test_theToolsSPIIsForTheToolsAlone() throws {
        var files = try sources().map { ("Sources/" + $0.path, $0.text) }
        let tests = Support.root + "/Tests"
        guard let walker = FileManager.default.enumerator(atPath: tests) else { throw CocoaError(.fileNoSuchFile) }
        for case let path as String in walker where path.hasSuffix(".swift") {
            files.append(("Tests/" + path, try String(contentsOfFile: tests + "/" + path, encoding: .utf8)))
        }
        let architecture = try String(contentsOfFile: Support.root + "/docs/architecture.md", encoding: .utf8)
        var types: [String] = []
        var offenders: [String] = []
        // Spelled in two pieces, so that this file does not name the SPI it looks for.
        let spi = "@_spi(" + "Tools)"
        for (path, text) in files {
            let isEntry = path.hasPrefix("Sources/") && path.hasSuffix("/ToolsEntry.swift")
            for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("//") { continue }
                if line.contains(spi) && !isEntry { offenders.append("\(path):\(i + 1): the Tools SPI outside a ToolsEntry.swift") }
                guard isEntry else { continue }
                if line.range(of: #"^(@\w+(\([^)]*\))? )*public "#, options: .regularExpression) != nil && !line.hasPrefix(spi + " public ") {
                    offenders.append("\(path):\(i + 1): public without \(spi)")
                }
                if let r = line.range(of: #"^@_spi\(Tools\) public (final class|struct|enum) \w+"#, options: .regularExpression) {
                    let name = String(line[r].split(separator: " ").last!)
                    types.append(name)
                    if !architecture.contains("`\(name)") { offenders.append("\(path): \(name) is not listed in docs/architecture.md") }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(types.count, 10, "the scan found the facade's types")
        XCTAssertEqual(offenders, [])
    }

    /// The scan itself finds a `default:` where one is.
    func test_theScanSeesADefault() {
        let text = "func f(r: Record) {\n    switch r.body {\n    case .leaveChannel: if x { y() }\n    default: break\n    }\n}\n"
        XCTAssertEqual(Self.recordSwitches(in: text).map(\.hasDefault), [true])
        let nested = "switch r.body {\ncase .a:\n    switch y { default: break }\ncase .b: break\n}\n"
        XCTAssertEqual(Self.recordSwitches(in: nested).map(\.hasDefault), [false], "a default of an inner switch is not the outer one's")
    }
}
