import Foundation
import TestSupport
import TraceModel
import XCTest

/// Every golden trace written before contract version 3 replays as it did under version 2, unless it is
/// one of the traces docs/contract-notes.md lists in its "v2 → v3" section with the rule that changed it.
///
/// `Fixtures/contract-v2-outcomes.json` holds, for each of those traces, what the version-2 replay gave
/// (its snapshot without the prose: no `message`, `advice` or `sentence`) and a hash of the trace file as
/// it was. A trace counts as changed when its snapshot's outcomes differ, or when its file was edited (an
/// expectation revised to v3).
final class ContractV3CorpusTests: XCTestCase {
    struct Entry: Decodable {
        let trace: String
        let traceFNV1a64: String
        let outcomes: JSONValue
    }

    static let prose: Set<String> = ["message", "advice", "sentence"]

    func test_theTracesV3ChangedAreExactlyTheOnesTheNotesList() throws {
        let fixture = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/contract-v2-outcomes.json"))
        let entries = try JSONDecoder().decode([String: Entry].self, from: fixture)
        XCTAssertGreaterThan(entries.count, 70, "the fixture lists the version-2 corpus")

        var changed: [String: String] = [:]
        for (name, entry) in entries {
            let trace = try Data(contentsOf: URL(fileURLWithPath: Fixtures.traces + "/" + entry.trace))
            let snapshot = try Data(contentsOf: URL(fileURLWithPath: Fixtures.traces + "/" + name + ".golden.json"))
            let now = try JSONDecoder().decode(JSONValue.self, from: snapshot).removing(keys: Self.prose)
            if Self.fnv1a64(trace) != entry.traceFNV1a64 {
                changed[name] = "trace file revised"
            } else if let path = entry.outcomes.firstDifference(from: now) {
                changed[name] = "replay changed at \(path)"
            }
        }
        let listed = try listedInNotes(among: Set(entries.keys))
        for name in Set(changed.keys).subtracting(listed).sorted() {
            XCTFail("\(name): \(changed[name]!), but docs/contract-notes.md's v2 → v3 section does not list it")
        }
        for name in listed.subtracting(changed.keys).sorted() {
            XCTFail("\(name) is listed as changed by v3 but replays as under v2, with its file unchanged")
        }
        // The four the contract's revision names.
        for name in ["smeeting-override-lost-after-unplug", "smeeting-bluetooth-blocks-speaker",
                     "srtc-setroute-before-join", "srtc-field-default-speaker-deferred-then-superseded"] {
            XCTAssertNotNil(changed[name], "\(name) was to be revised to v3")
        }
    }

    /// The names of version-2 traces in the notes' "v2 → v3" section, each in an item that cites a rule.
    func listedInNotes(among names: Set<String>) throws -> Set<String> {
        let notes = try String(contentsOfFile: Fixtures.root + "/docs/contract-notes.md", encoding: .utf8)
        let name = try NSRegularExpression(pattern: "`([a-z0-9-]+)`")
        let rule = try NSRegularExpression(pattern: #"^- \*\*[^*]*\b[RIVXQSLT][0-9]{1,2}\b[^*]*\*\*"#)
        var inSection = false
        var items: [String] = []
        for line in notes.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#") { inSection = line.contains("v2 → v3"); continue }
            guard inSection else { continue }
            if line.hasPrefix("- ") { items.append(line) } else if line.hasPrefix(" "), !items.isEmpty { items[items.count - 1] += line }
        }
        var listed: Set<String> = []
        for item in items {
            let range = NSRange(item.startIndex..., in: item)
            let found = name.matches(in: item, range: range).map { String(item[Range($0.range(at: 1), in: item)!]) }
                .filter(names.contains)
            guard !found.isEmpty else { continue }
            XCTAssertNotNil(rule.firstMatch(in: item, range: range), "a changed trace is listed without a rule: \(item)")
            listed.formUnion(found)
        }
        XCTAssertFalse(listed.isEmpty, "docs/contract-notes.md has a v2 → v3 section listing traces")
        return listed
    }

    static func fnv1a64(_ data: Data) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    func test_theHashAndTheComparisonSeeWhatTheyShould() throws {
        XCTAssertEqual(Self.fnv1a64(Data()), "cbf29ce484222325")
        XCTAssertEqual(Self.fnv1a64(Data("a".utf8)), "af63dc4c8601ec8c")
        let a = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"x":[1,{"message":"m","y":2}]}"#.utf8))
        let b = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"x":[1,{"message":"other","y":3}]}"#.utf8))
        XCTAssertEqual(a.removing(keys: Self.prose).firstDifference(from: b.removing(keys: Self.prose)), ".x[1].y")
        XCTAssertNil(a.removing(keys: Self.prose).firstDifference(from: a.removing(keys: ["message"])))
        let added = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"x":[1,{"y":2,"z":0}]}"#.utf8))
        XCTAssertNil(a.removing(keys: Self.prose).firstDifference(from: added), "a field added since is no change")
        XCTAssertEqual(added.firstDifference(from: a.removing(keys: Self.prose)), ".x[1].z", "a field dropped is")
    }
}

/// A JSON value, to compare snapshots by structure.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    func removing(keys: Set<String>) -> JSONValue {
        switch self {
        case .array(let a): .array(a.map { $0.removing(keys: keys) })
        case .object(let o): .object(o.filter { !keys.contains($0.key) }.mapValues { $0.removing(keys: keys) })
        case .null, .bool, .number, .string: self
        }
    }

    /// The path of the first place where `other` (a later snapshot) differs, or nil when they are equal.
    /// A key only `other` has is a field added since, not a change.
    func firstDifference(from other: JSONValue, at path: String = "") -> String? {
        switch (self, other) {
        case let (.object(a), .object(b)):
            for key in a.keys.sorted() {
                guard let x = a[key], let y = b[key] else { return path + "." + key }
                if let d = x.firstDifference(from: y, at: path + "." + key) { return d }
            }
            return nil
        case let (.array(a), .array(b)):
            guard a.count == b.count else { return path + "[count \(a.count) → \(b.count)]" }
            for (i, (x, y)) in zip(a, b).enumerated() {
                if let d = x.firstDifference(from: y, at: path + "[\(i)]") { return d }
            }
            return nil
        default:
            return self == other ? nil : path
        }
    }
}
